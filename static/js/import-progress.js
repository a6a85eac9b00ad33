// Live import progress: the page works without this (it refreshes itself); with it, the bar moves as rows
// are imported and the page reloads once to show the results. Its words come from the page, in the page's language.
(function () {
  var bar = document.getElementById("import-progress");
  if (!bar || !window.EventSource) return;
  var percent = document.getElementById("import-percent");
  var counts = document.getElementById("import-counts");
  var status = document.getElementById("import-status");
  var source = new EventSource(bar.getAttribute("data-events"));
  function show(event) {
    var job = JSON.parse(event.data);
    var value = Math.floor(job.progress * 100);
    bar.value = value;
    bar.textContent = value + " %";
    percent.textContent = value;
    if (job.status === "processing") status.textContent = bar.getAttribute("data-importing");
    // The line in the page's language, its numbers marked {added}, {updated}, {skipped} and {failed}.
    counts.textContent = bar.getAttribute("data-counts").replace(/\{(added|updated|skipped|failed)\}/g, function (_, name) {
      return String(job[name === "added" ? "created" : name]);
    });
  }
  source.addEventListener("progress", show);
  function finish(event) {
    show(event);
    source.close();
    window.location.reload();
  }
  source.addEventListener("completed", finish);
  source.addEventListener("failed", finish);
  // Refused (too many live views open at once, say): the page updates by reloading now and then instead.
  source.onerror = function () {
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(function () { window.location.reload(); }, 5000);
    }
  };
})();
