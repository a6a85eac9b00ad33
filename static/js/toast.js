// The message after an action (issue 36): × closes it where it is, without loading the page again, and takes the
// message's words out of the address so a reload does not bring it back; it fades by itself after a few seconds, or
// after longer when it offers something to do (Undo, a date), and waits while a finger, the mouse or the keyboard is
// on it. While it shows, the page gets room below its last control, so nothing stays hidden under it. Without this
// script × is a link to the same page without the message.
(function () {
  "use strict";
  var toast = document.querySelector(".toast");
  if (!toast) return;
  var plainFor = 5000;
  var withActionsFor = 12000;
  var main = document.getElementById("main");
  var dismiss = toast.querySelector(".toast-dismiss");
  var timer = null;
  var held = false;

  function makeRoom() {
    if (main) main.style.paddingBottom = toast.offsetHeight + 16 + "px";
  }

  function close() {
    if (timer) clearTimeout(timer);
    toast.classList.add("is-leaving");
    if (main) main.style.paddingBottom = "";
    if (dismiss && window.history && history.replaceState) {
      var url = new URL(dismiss.href, location.href);
      history.replaceState(history.state, "", url.pathname + url.search + location.hash);
    }
    setTimeout(function () { toast.remove(); }, 250);
  }

  function schedule() {
    if (timer) clearTimeout(timer);
    if (held) return;
    timer = setTimeout(close, toast.querySelector(".toast-actions") ? withActionsFor : plainFor);
  }

  if (dismiss) {
    dismiss.addEventListener("click", function (event) {
      event.preventDefault();
      close();
    });
  }
  ["pointerenter", "focusin", "touchstart"].forEach(function (name) {
    toast.addEventListener(name, function () { held = true; if (timer) clearTimeout(timer); }, { passive: true });
  });
  ["pointerleave", "focusout"].forEach(function (name) {
    toast.addEventListener(name, function () {
      if (toast.contains(document.activeElement)) return;
      held = false;
      schedule();
    });
  });
  makeRoom();
  window.addEventListener("resize", makeRoom);
  schedule();
})();
