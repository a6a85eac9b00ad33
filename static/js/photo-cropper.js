// Turning and cropping a photo with a finger or a mouse (issue 24). Everything here fills in the same form fields a
// person can type without it: the server does the work, from the untouched original.
//
// On a photo's page: "Draw the crop" lets a finger draw the part to keep over the photo; the edges are worked out
// against the whole picture (the photo shown may already be cropped) and put into the percent fields.
// On the upload page: the chosen photo is shown at once, turned as the Turn choice says, and a crop can be drawn on
// it the same way, before anything is uploaded.
(function () {
  "use strict";

  function percent(value) { return String(Math.round(value * 1000) / 10); }
  function read(input) { var value = parseFloat(input.value); return isFinite(value) ? value / 100 : 0; }

  // Lets a pointer draw a rectangle over `surface` (an element laid out over the picture); calls done(x0, y0, x1, y1)
  // with fractions of the surface's size.
  function drawable(surface, done) {
    var box = document.createElement("div");
    box.className = "crop-box";
    box.hidden = true;
    surface.appendChild(box);
    surface.addEventListener("pointerdown", function (event) {
      if (!surface.classList.contains("is-drawing")) { return; }
      event.preventDefault();
      surface.setPointerCapture(event.pointerId);
      var frame = surface.getBoundingClientRect();
      var clamp = function (value, low, high) { return Math.min(Math.max(value, low), high); };
      var startX = clamp(event.clientX - frame.left, 0, frame.width);
      var startY = clamp(event.clientY - frame.top, 0, frame.height);
      var endX = startX, endY = startY;
      var show = function () {
        box.hidden = false;
        box.style.left = Math.min(startX, endX) + "px";
        box.style.top = Math.min(startY, endY) + "px";
        box.style.width = Math.abs(endX - startX) + "px";
        box.style.height = Math.abs(endY - startY) + "px";
      };
      var move = function (moveEvent) {
        endX = clamp(moveEvent.clientX - frame.left, 0, frame.width);
        endY = clamp(moveEvent.clientY - frame.top, 0, frame.height);
        show();
      };
      var up = function () {
        surface.removeEventListener("pointermove", move);
        surface.removeEventListener("pointerup", up);
        surface.removeEventListener("pointercancel", up);
        if (Math.abs(endX - startX) < 8 || Math.abs(endY - startY) < 8) { box.hidden = true; return; }
        done(Math.min(startX, endX) / frame.width, Math.min(startY, endY) / frame.height,
             Math.max(startX, endX) / frame.width, Math.max(startY, endY) / frame.height);
      };
      surface.addEventListener("pointermove", move);
      surface.addEventListener("pointerup", up);
      surface.addEventListener("pointercancel", up);
    });
    return box;
  }

  // A button that switches drawing on and off, so the page still scrolls under a finger when it is off.
  function drawToggle(surface, label) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = label;
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", function () {
      var on = !surface.classList.contains("is-drawing");
      surface.classList.toggle("is-drawing", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
    return button;
  }

  // The photo page.
  var form = document.querySelector("form[data-cropper]");
  var picture = document.querySelector(".photo-large img");
  if (form && picture) {
    var fields = ["left", "top", "right", "bottom"].map(function (edge) { return form.querySelector("#crop_" + edge); });
    var current = ["left", "top", "right", "bottom"].map(function (edge) {
      return (parseFloat(form.getAttribute("data-crop-" + edge)) || 0) / 100;
    });
    var surface = document.createElement("div");
    surface.className = "crop-surface";
    picture.parentNode.insertBefore(surface, picture);
    surface.appendChild(picture);
    drawable(surface, function (x0, y0, x1, y1) {
      // What is shown is already cropped by `current`: the new edges are of the whole picture.
      var keptWidth = 1 - current[0] - current[2], keptHeight = 1 - current[1] - current[3];
      fields[0].value = percent(current[0] + x0 * keptWidth);
      fields[1].value = percent(current[1] + y0 * keptHeight);
      fields[2].value = percent(current[2] + (1 - x1) * keptWidth);
      fields[3].value = percent(current[3] + (1 - y1) * keptHeight);
      fields[0].focus();
    });
    var hint = form.querySelector(".cropper-hint");
    hint.hidden = false;
    hint.textContent = form.getAttribute("data-draw-hint") + " ";
    hint.appendChild(drawToggle(surface, form.getAttribute("data-draw-label")));
  }

  // The upload page.
  var upload = document.querySelector("form[data-upload-touch-up]");
  if (upload) {
    var preview = upload.querySelector(".upload-preview");
    var canvas = preview.querySelector("canvas");
    var turn = upload.querySelector("#turn");
    var preset = upload.querySelector("#crop_preset");
    var edges = ["left", "top", "right", "bottom"].map(function (edge) { return upload.querySelector("#crop_" + edge); });
    var turns = { "none": 0, "right": 1, "upside-down": 2, "left": 3 };
    var names = ["none", "right", "upside-down", "left"];
    var image = null;
    var frame = canvas.parentNode;
    var box = drawable(frame, function (x0, y0, x1, y1) {
      preset.value = "";
      edges[0].value = percent(x0);
      edges[1].value = percent(y0);
      edges[2].value = percent(1 - x1);
      edges[3].value = percent(1 - y1);
    });
    var draw = function () {
      if (!image) { return; }
      var quarter = turns[turn.value] || 0;
      var scale = Math.min(1, 720 / Math.max(image.naturalWidth, image.naturalHeight));
      var width = Math.round(image.naturalWidth * scale), height = Math.round(image.naturalHeight * scale);
      canvas.width = quarter % 2 ? height : width;
      canvas.height = quarter % 2 ? width : height;
      var context = canvas.getContext("2d");
      context.save();
      context.translate(canvas.width / 2, canvas.height / 2);
      context.rotate(quarter * Math.PI / 2);
      context.drawImage(image, -width / 2, -height / 2, width, height);
      context.restore();
      box.hidden = true;
    };
    var chosen = function (file) {
      if (!file || !/^image\/(jpeg|png|webp)$/.test(file.type)) { preview.hidden = true; return; }
      var loaded = new Image();
      loaded.onload = function () { image = loaded; preview.hidden = false; draw(); };
      loaded.src = URL.createObjectURL(file);
    };
    upload.querySelectorAll("input[type=file]").forEach(function (input) {
      input.addEventListener("change", function () { chosen(input.files && input.files.length === 1 ? input.files[0] : null); });
    });
    var rotate = function (by) {
      // Turning moves the drawn crop with the picture, as the server will.
      var values = edges.map(read);
      var moved = by === 1 ? [values[3], values[0], values[1], values[2]] : [values[1], values[2], values[3], values[0]];
      edges.forEach(function (input, index) { input.value = moved[index] ? percent(moved[index]) : ""; });
      turn.value = names[((turns[turn.value] || 0) + (by === 1 ? 1 : 3)) % 4];
      draw();
    };
    preview.querySelector("[data-turn=left]").addEventListener("click", function () { rotate(-1); });
    preview.querySelector("[data-turn=right]").addEventListener("click", function () { rotate(1); });
    turn.addEventListener("change", draw);
    preview.querySelector(".preview-tools").appendChild(drawToggle(frame, upload.getAttribute("data-draw-label")));
  }
})();
