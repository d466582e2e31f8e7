/* Every page: keep the language link pointing at the page the visitor is looking at.
   htmx swaps (wizard steps, result) push a new URL without reloading the header, so
   without this the link would lead back to the first URL loaded. Our URLs differ between
   the languages only by the /en prefix (the link carries the other language's). */
(function () {
  "use strict";
  function syncSwitch() {
    var links = document.querySelectorAll("a.lang-switch[data-lang-prefix]");
    var bare = window.location.pathname.replace(/^\/en(?=\/|$)/, "") || "/";
    Array.prototype.forEach.call(links, function (link) {
      link.setAttribute("href", link.getAttribute("data-lang-prefix") + bare + window.location.search);
    });
  }
  document.addEventListener("htmx:pushedIntoHistory", syncSwitch);
  document.addEventListener("htmx:replacedInHistory", syncSwitch);
  window.addEventListener("popstate", syncSwitch);
  window.addEventListener("pageshow", syncSwitch);
})();
