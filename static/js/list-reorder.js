// Reordering a list by dragging (issue 24). Without this script each book has ↑ and ↓ buttons that post a form;
// with it, each book also shows a handle that follows a finger or a mouse (pointer events, so phones work too).
// Dropping posts the book's new place to the same URL as the buttons, asking for JSON so the answer is a bare 204,
// and the page stays as it is. If the server refuses, the page reloads to show the order that was kept.
(function () {
  "use strict";
  var list = document.querySelector("ol[data-reorder]");
  if (!list) { return; }
  var form = list.closest("form");
  var csrf = form.querySelector("input[name=_csrf]").value;
  var items = function () { return Array.prototype.slice.call(list.querySelectorAll("li.list-book")); };
  var firstPlace = function () {
    var first = items()[0];
    return first ? parseInt(first.getAttribute("data-position"), 10) : 1;
  };

  items().forEach(function (item) {
    var handle = item.querySelector(".drag-handle");
    if (!handle) { return; }
    handle.hidden = false;
    handle.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      var start = firstPlace();
      var from = items().indexOf(item);
      item.classList.add("is-dragging");
      var move = function (moveEvent) {
        // The book trades places with a neighbour once the pointer passes that neighbour's middle. The neighbour is
        // the one moved, either way: moving the dragged book itself takes it out of the page for a moment, which
        // ends its pointer capture, so a drag upwards stopped after one place and its drop was never saved.
        var all = items();
        var index = all.indexOf(item);
        var above = all[index - 1];
        var below = all[index + 1];
        if (above && moveEvent.clientY < above.getBoundingClientRect().top + above.offsetHeight / 2) {
          list.insertBefore(above, item.nextSibling);
        } else if (below && moveEvent.clientY > below.getBoundingClientRect().top + below.offsetHeight / 2) {
          list.insertBefore(below, item);
        }
      };
      var drop = function () {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", drop);
        handle.removeEventListener("pointercancel", drop);
        item.classList.remove("is-dragging");
        var to = items().indexOf(item);
        if (to === from) { return; }
        renumber(start);
        tell(item.getAttribute("data-move-path"), "position", String(start + to));
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", drop);
      handle.addEventListener("pointercancel", drop);
    });
  });

  // ↑ and ↓ move the book on the page and tell the server in the background, so the page does not reload and the
  // keyboard's place is kept (focus stays on the button pressed, or its twin once the book reaches an end). A move
  // past the first or last book of the page is left to the form, which opens the page the book lands on.
  list.addEventListener("click", function (event) {
    var button = event.target.closest("button[name=direction]");
    if (!button || button.disabled) { return; }
    var item = button.closest("li.list-book");
    var all = items();
    var index = all.indexOf(item);
    var up = button.value === "up";
    var neighbour = all[index + (up ? -1 : 1)];
    if (!item || !neighbour) { return; }
    event.preventDefault();
    var start = firstPlace();
    if (up) { list.insertBefore(item, neighbour); } else { list.insertBefore(neighbour, item); }
    renumber(start);
    var twin = item.querySelector("button[value=" + (up ? "down" : "up") + "]");
    (button.disabled && twin ? twin : button).focus();
    tell(button.getAttribute("formaction"), "direction", button.value);
  });

  // Posts a move as the form would, asking for JSON so the answer is a bare 204; a refusal reloads the page to
  // show the order that was kept.
  function tell(path, name, value) {
    var body = new URLSearchParams();
    body.set("_csrf", csrf);
    body.set(name, value);
    fetch(path, {
      method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) { window.location.reload(); }
    }, function () { window.location.reload(); });
  }

  // The numbers and the ↑/↓ buttons follow the new order, so what the page says stays true.
  function renumber(start) {
    var all = items();
    all.forEach(function (item, index) {
      var place = start + index;
      item.setAttribute("data-position", String(place));
      var label = item.querySelector(".list-place");
      if (label) {
        label.textContent = String(place);
        label.setAttribute("aria-label", "Number " + place);
      }
    });
    var up = list.querySelectorAll("button[value=up]");
    var down = list.querySelectorAll("button[value=down]");
    var total = parseInt(list.getAttribute("data-count"), 10);
    all.forEach(function (item, index) {
      var place = start + index;
      if (up[index]) { up[index].disabled = place === 1; }
      if (down[index]) { down[index].disabled = place === total; }
    });
  }
})();
