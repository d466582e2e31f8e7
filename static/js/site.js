/* Every page: keep the language switch's hidden "next" on the page the visitor is looking
   at. htmx swaps (wizard steps, result) push a new URL without reloading the header, so
   without this the switch would send the visitor back to the first URL loaded. */
(function () {
  "use strict";
  function syncNext() {
    var fields = document.querySelectorAll("form.lang-switch input[name='next']");
    var here = window.location.pathname + window.location.search;
    Array.prototype.forEach.call(fields, function (field) { field.value = here; });
  }
  document.addEventListener("htmx:pushedIntoHistory", syncNext);
  document.addEventListener("htmx:replacedInHistory", syncNext);
  window.addEventListener("popstate", syncNext);
  window.addEventListener("pageshow", syncNext);
})();
