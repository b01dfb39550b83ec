/** Inline style of report.html: readable on a phone, colours with at least 4.5:1 contrast, every detail shown on paper. */
export const STYLE = `
:root{--fg:#1a1a1a;--muted:#4a4a4a;--bg:#fff;--panel:#f3f4f6;--line:#c9ced6;--focus:#1a56db;
--pass:#1b5e20;--fail:#b00020;--warn:#8a4b00;--info:#0b5394;--skip:#545454;--error:#6a1b9a;color-scheme:light}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
.wrap{max-width:62rem;margin:0 auto;padding:1rem 1.25rem}
.skip{position:absolute;left:-100vw;top:.5rem}
.skip:focus{left:.5rem;background:var(--bg);padding:.5rem .75rem;z-index:1}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
a{color:var(--focus)}
h1{font-size:1rem;margin:0 0 .5rem;color:var(--muted);font-weight:600}
h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
main>section:first-child>h2{margin-top:.5rem}
h3{font-size:1.1rem;margin:1.5rem 0 .25rem}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
.verdict{font-size:1.35rem;line-height:1.35;font-weight:650;margin:0 0 1rem;padding:.75rem 1rem;border-left:.45rem solid var(--skip);background:var(--panel);overflow-wrap:anywhere}
.verdict.conformant{border-color:var(--pass)}
.verdict.not-conformant{border-color:var(--fail)}
.verdict.inconclusive{border-color:var(--error)}
.verdict.would-work{border-color:var(--pass)}
.verdict.would-fail{border-color:var(--warn)}
.verdict.not-judged{border-color:var(--skip)}
.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem 1rem;margin:0;font-size:.9rem}
.meta dt{color:var(--muted)}
.meta dd{margin:0;overflow-wrap:anywhere}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;padding:0;margin:1rem 0 0;list-style:none}
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(7.5rem,1fr));gap:.5rem;list-style:none;padding:0;margin:.5rem 0}
.totals li{border:1px solid var(--line);border-top:.35rem solid var(--skip);border-radius:.3rem;padding:.4rem .75rem}
.totals .n{display:block;font-size:1.75rem;font-weight:700;line-height:1.2}
.t-pass{border-top-color:var(--pass)!important}.t-fail{border-top-color:var(--fail)!important}
.t-warn{border-top-color:var(--warn)!important}.t-info{border-top-color:var(--info)!important}
.t-error{border-top-color:var(--error)!important}.t-flaky{border-top-color:var(--warn)!important}
.plain{color:var(--muted);margin:.25rem 0}
.badge{display:inline-block;min-width:3.75rem;text-align:center;font:700 .75rem/1.7 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#fff;background:var(--skip);border-radius:.2rem;padding:0 .35rem;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.scroll{overflow-x:auto}.slices{border-collapse:collapse}.slices th,.slices td{padding:.2rem .6rem;text-align:left}
.b-pass{background:var(--pass)}.b-fail{background:var(--fail)}.b-warn{background:var(--warn)}
.b-info{background:var(--info)}.b-skip{background:var(--skip)}.b-error{background:var(--error)}.b-flaky{background:var(--warn)}
.level{font-size:.8rem;font-weight:600;color:var(--muted)}
.diagnosis{border:1px solid var(--line);border-left:.35rem solid var(--warn);border-radius:.3rem;padding:.5rem 1rem;margin:.5rem 0;overflow-wrap:anywhere}
.diagnosis p{margin:.35rem 0}
.diagnosis .advice{margin:.35rem 0;padding-left:1.5rem}
details.req{border:1px solid var(--line);border-radius:.3rem;margin:.4rem 0;background:var(--bg)}
details.req>summary{cursor:pointer;padding:.5rem .75rem;display:flex;flex-wrap:wrap;gap:.15rem .6rem;align-items:baseline;border-radius:.3rem}
details.req>summary::before{content:"\\25B8";color:var(--muted)}
details.req[open]>summary::before{content:"\\25BE"}
details.req>summary::-webkit-details-marker{display:none}
details.req>summary:hover{background:var(--panel)}
.rid{font-size:.85rem;font-weight:600;overflow-wrap:anywhere}
.req-body{padding:0 .75rem .75rem;border-top:1px solid var(--line)}
blockquote{margin:.75rem 0;padding:.1rem .75rem;border-left:.25rem solid var(--line)}
blockquote p{margin:.25rem 0}
.source{font-size:.85rem;color:var(--muted)}
.exchange{border-top:1px dashed var(--line);padding-top:.5rem;margin-top:.5rem}
.checks{list-style:none;padding:0;margin:.25rem 0}
.checks>li{margin:.35rem 0}
.fields{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .75rem;margin:.25rem 0 .25rem 1rem;font-size:.92rem}
.fields dt{color:var(--muted);font-weight:600}
.fields dd{margin:0;overflow-wrap:anywhere}
.http dt{margin-top:.35rem;font-weight:600;color:var(--muted)}
.http dd{margin:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);border:1px solid var(--line);padding:.5rem .65rem;border-radius:.25rem;font-size:.8rem;line-height:1.45;margin:.2rem 0}
.repro{display:flex;flex-wrap:wrap;align-items:flex-start;gap:.35rem .75rem}
.repro pre{flex:1 1 20rem;min-width:0}
.copy{font:inherit;font-size:.9rem;padding:.35rem .9rem;border:1px solid var(--focus);border-radius:.3rem;background:var(--bg);color:var(--focus);cursor:pointer}
.copy:hover{background:var(--panel)}
.copied{font-size:.85rem;color:var(--pass);min-height:1.2em}
.snippet-where{font-size:.92rem;font-weight:600;color:var(--muted);margin:.6rem 0 .1rem}
.path{margin:.35rem 0 .75rem}
.path .cause{display:block;font-weight:700}
.path figcaption .source{display:block;margin:.35rem 0 0}
.request-path{display:flex;align-items:flex-start;max-width:48rem;list-style:none;padding:0;margin:.75rem 0 0}
.hop{flex:1 1 0;min-width:0;position:relative}
.hop+.hop{margin-left:1.6rem}
.hop-box{display:flex;flex-direction:column;justify-content:center;min-height:3.4rem;padding:.3rem .35rem;border:2px solid var(--line);border-radius:.4rem;text-align:center;font-weight:600;font-size:.85rem;line-height:1.25}
.hop-detail{font-weight:400;font-size:.75rem}
.hop-passed .hop-box{background:#e8f5e9;border-color:var(--pass)}
.hop-stopped .hop-box{background:#fdecea;border:3px solid var(--fail)}
.hop-unreached .hop-box{border-style:dashed;color:var(--muted)}
.link{position:absolute;left:-1.45rem;width:1.3rem;top:1.7rem;border-top:2px solid currentColor;color:var(--pass)}
.link-unreached{border-top-style:dashed;color:var(--line)}
.link::after{content:"";position:absolute;right:-.1rem;top:calc(-.35rem - 1px);border-style:solid;border-width:.35rem 0 .35rem .45rem;border-color:transparent transparent transparent currentColor}
.stop-mark{display:block;margin-top:.35rem;color:var(--fail);font-weight:600;font-size:.8rem;line-height:1.3;text-align:center}
.stop-x{display:inline-block;width:1.15rem;height:1.15rem;border-radius:50%;background:var(--fail);color:#fff;font-size:.7rem;line-height:1.15rem;text-align:center;-webkit-print-color-adjust:exact;print-color-adjust:exact}
@media (max-width:34rem){
.request-path{flex-direction:column;align-items:stretch}
.hop+.hop{margin-left:0;margin-top:1.5rem}
.hop-box{min-height:0}
.link{left:50%;top:-1.4rem;width:0;height:1.3rem;border-top:0;border-left:2px solid currentColor}
.link-unreached{border-left-style:dashed}
.link::after{right:auto;top:auto;left:calc(-.35rem - 1px);bottom:-.1rem;border-width:.45rem .35rem 0 .35rem;border-color:currentColor transparent transparent transparent}
}
footer{margin:2.5rem 0 1rem;font-size:.85rem;color:var(--muted);border-top:1px solid var(--line);padding-top:.5rem}
footer p{margin:.2rem 0;overflow-wrap:anywhere}
@media (max-width:40rem){
.wrap{padding:.75rem}
.verdict{font-size:1.15rem;padding:.6rem .75rem}
.meta,.fields{grid-template-columns:minmax(0,1fr)}
.meta dd,.fields dd{margin-bottom:.35rem}
.fields{margin-left:0}
}
@media print{
body{font-size:10.5pt}
.wrap{max-width:none;padding:0}
nav,.skip,.copy,.copied{display:none!important}
details.req>summary::before{content:none}
details.req::details-content{content-visibility:visible;display:block}
details.req{break-inside:auto}
details.req>summary{break-after:avoid}
pre{background:none}
h2,h3{break-after:avoid}
}
`;

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
