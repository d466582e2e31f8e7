/* Wizard behaviour on top of htmx (self-hosted, no inline handlers, CSP-safe).
   - Browser Back/Forward reloads the step from the server (answers live there), instead of
     restoring a stale DOM snapshot from localStorage.
   - After a step swap: update the title, move focus to the new heading (or to a field the
     server marked autofocus because it has an error).
   - After inline validation: keep aria-invalid in step with the field's error slot. */
(function () {
  "use strict";
  if (window.htmx) {
    window.htmx.config.historyCacheSize = 0;
    window.htmx.config.refreshOnHistoryMiss = true;
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target) { return; }
    if (target.id === "wizard-region") {
      var heading = target.querySelector("[data-step-heading]");
      if (heading && heading.getAttribute("data-title")) {
        document.title = heading.getAttribute("data-title");
      }
      var invalid = target.querySelector("[aria-invalid='true']");
      var focus = invalid || heading;
      if (focus) { focus.focus(); }
    } else if (target.classList.contains("field-error")) {
      var hasError = target.textContent.trim() !== "";
      var fields = document.querySelectorAll("[aria-describedby~='" + target.id + "']");
      Array.prototype.forEach.call(fields, function (el) {
        if (hasError) { el.setAttribute("aria-invalid", "true"); }
        else { el.removeAttribute("aria-invalid"); }
      });
    }
  });
  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (el && el.hasAttribute && el.hasAttribute("data-select-on-focus")) { el.select(); }
  });
})();
