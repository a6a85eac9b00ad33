// On a phone the shelf tabs are one row that scrolls sideways: bring the current shelf's tab into view, so "Read" or
// "Did not finish" is not hidden past the screen's edge on its own page.
(function () {
  "use strict";
  var tabs = document.querySelector(".shelf-tabs");
  var current = tabs && tabs.querySelector('[aria-current="page"]');
  if (!current) {
    return;
  }
  var left = current.offsetLeft - tabs.offsetLeft;
  if (left + current.offsetWidth > tabs.scrollLeft + tabs.clientWidth) {
    tabs.scrollLeft = left - 16;
  }
})();
