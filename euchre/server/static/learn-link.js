/* The table page's "Rules" link: /learn?table=ID, the rules of this table in plain words. */
"use strict";

(function () {
  const link = document.getElementById("rules-link");
  const m = /^\/table\/([^/?#]+)/.exec(location.pathname);
  if (!link || !m) return;
  let id = m[1];
  try { id = decodeURIComponent(id); } catch (e) { /* keep it as it is */ }
  link.href = "/learn?table=" + encodeURIComponent(id);
})();
