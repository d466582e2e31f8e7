// Sales workspace: "select all" for the bulk-action checkboxes. CSP-safe (no inline code).
// Everything works without it: each row's checkbox can be ticked by hand.
document.addEventListener("change", function (event) {
  var box = event.target;
  if (!box.matches || !box.matches("input[data-select-all]")) return;
  document.querySelectorAll('input[type=checkbox][name="leads"]').forEach(function (item) {
    item.checked = box.checked;
  });
});
