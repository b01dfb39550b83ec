/** Inline script: copy buttons that need no network, details opened for printing and when linked to. */
export const SCRIPT = `
(function () {
  'use strict';
  function copyWithSelection(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand('copy'); } catch (error) { copied = false; }
    area.remove();
    return copied;
  }
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () { return copyWithSelection(text); });
    }
    return Promise.resolve(copyWithSelection(text));
  }
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var source = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('aria-describedby'));
    if (!source) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      copy(source.textContent).then(function (copied) {
        if (status) status.textContent = copied ? 'Copied' : 'Copy failed: select the command and copy it';
      });
    });
  });
  function openTarget() {
    var target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target && target.tagName === 'DETAILS') target.open = true;
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
  var openedForPrint = [];
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details:not([open])').forEach(function (details) {
      details.open = true;
      openedForPrint.push(details);
    });
  });
  window.addEventListener('afterprint', function () {
    openedForPrint.splice(0).forEach(function (details) { details.open = false; });
  });
})();
`;
