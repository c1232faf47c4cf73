#!/bin/sh
# The smallest bot of the euchre bot protocol (docs/protocol.md): it always answers the first
# legal action. POSIX sh and sed only. It relies on the engine's compact JSON ("legal":["...",...]
# is the last key of an act message); a real bot should use a JSON parser.
#   euchre simulate --bots 'heuristic,exec:sh examples/first_legal_bot.sh'
while IFS= read -r line; do
    case $line in
        '{"type":"act"'*) printf '%s\n' "$line" | sed 's/.*"legal":\["\([^"]*\)".*/\1/' ;;
        '{"type":"bye"'*) exit 0 ;;
    esac
done
