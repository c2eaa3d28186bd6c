// Copy buttons beside a link to copy (an invitation's): each button names
// the field it copies in data-copy. Without this script the field is still
// there to select and copy by hand; with it the button appears.
"use strict";
(function () {
  function copied(button, ok) {
    var was = button.dataset.words || button.firstChild.textContent;
    button.dataset.words = was;
    button.firstChild.textContent = ok ? "Copied" : "Select and copy";
    setTimeout(function () { button.firstChild.textContent = was; }, 2000);
  }
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.dataset.copy);
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      field.focus();
      field.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(
          function () { copied(button, true); },
          function () { copied(button, document.execCommand("copy")); });
      } else {
        copied(button, document.execCommand("copy"));
      }
    });
  });
})();
