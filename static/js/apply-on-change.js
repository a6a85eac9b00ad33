// Forms marked data-apply-on-change (the shelf's sort order) apply as soon as a choice changes, without the extra
// tap on their button; the button stays for browsers without scripts (CSS hides it once this has run).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.hasAttribute("data-apply-on-change")) {
      form.submit();
    }
  });
})();
