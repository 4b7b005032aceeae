// GET /docs/docs.js: draws openapi.yaml with the Redoc bundle (web/docs.html). A file of its
// own, not an inline script, so that the page's Content-Security-Policy allows scripts from this
// service only ('self'), never inline ones.
Redoc.init('openapi.yaml', {
  hideDownloadButton: false,
  expandResponses: '200',
  jsonSampleExpandLevel: 3,
  theme: { typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
                         headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' } } },
}, document.getElementById('redoc'), function (err) {
  document.getElementById('loading').textContent = err ? 'The reference could not be drawn: ' + err : '';
  document.body.dataset.state = err ? 'error' : 'done';
});
