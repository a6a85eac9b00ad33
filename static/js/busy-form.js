// Shows that a slow request is under way: a form with data-busy-label (and links with it) says so in a live
// region and disables its button, so a second tap does not start a second search. Without this script the form
// works the same, only without the message.
(function () {
  "use strict";
  function showBusy(label, button) {
    var status = document.getElementById("busy-status");
    if (!status) {
      status = document.createElement("p");
      status.id = "busy-status";
      status.className = "busy-status";
      status.setAttribute("role", "status");
      var main = document.getElementById("main");
      main.insertBefore(status, main.firstChild);
    }
    status.innerHTML = '<span class="spinner" aria-hidden="true"></span> ';
    status.appendChild(document.createTextNode(label));
    if (button) {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
    }
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var label = form.getAttribute("data-busy-label");
    if (label && !event.defaultPrevented) {
      showBusy(label, form.querySelector("button[type=submit], button:not([type])"));
    }
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-busy-label]") : null;
    if (link && !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey) {
      showBusy(link.getAttribute("data-busy-label"), null);
    }
  });
  // Coming back with the browser's Back button restores the page as it was left: clear the busy state.
  window.addEventListener("pageshow", function () {
    var status = document.getElementById("busy-status");
    if (status) { status.remove(); }
    document.querySelectorAll("button[aria-busy]").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    });
  });
})();
