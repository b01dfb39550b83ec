import { PAGE_COLOURS, TONES, type Tone } from './vocabulary.js';

/**
 * The one stylesheet of every page the suite writes (report.html, matrix.html, history.html): the palette comes from
 * the vocabulary, and a result is coloured by the tone class the vocabulary gives it (tone-pass, tone-fail, ...), which
 * sets --tone and --tone-tint for the rules below to paint with. No page names a colour of its own.
 */

/** The class that colours an element by a tone. */
export const toneClass = (tone: Tone): string => `tone-${tone}`;

/** The palette as custom properties, and a class per tone that sets --tone and --tone-tint from it. */
function palette(): string {
  const tones = Object.entries(TONES) as [Tone, (typeof TONES)[Tone]][];
  const colours = [
    ...Object.entries(PAGE_COLOURS).map(([name, colour]) => `--${name}:${colour};`),
    ...tones.map(([tone, paint]) => `--${tone}:${paint.ink};--${tone}-tint:${paint.tint};`),
  ];
  const classes = tones.map(([tone]) => `.${toneClass(tone)}{--tone:var(--${tone});--tone-tint:var(--${tone}-tint)}`);
  return `:root{${colours.join('')}color-scheme:light}\n${classes.join('\n')}`;
}

/** What every page shares: the type, links and focus, labels filled with their tone, cells tinted with it. */
const BASE = `
*{box-sizing:border-box}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
a{color:var(--focus)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.plain{color:var(--muted);margin:.25rem 0}
.badge{display:inline-block;text-align:center;font-weight:700;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--bg);background:var(--tone,var(--skip));border-radius:.2rem;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.badge.none{background:none;color:var(--muted)}
.cell{background:var(--tone-tint);color:var(--tone);-webkit-print-color-adjust:exact;print-color-adjust:exact}
footer{margin:2.5rem 0 1rem;font-size:.85rem;color:var(--muted);border-top:1px solid var(--line);padding-top:.5rem}
`;

/** report.html: readable on a phone, colours with at least 4.5:1 contrast, every detail shown on paper. */
const REPORT = `
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
.wrap{max-width:62rem;margin:0 auto;padding:1rem 1.25rem}
.skip{position:absolute;left:-100vw;top:.5rem}
.skip:focus{left:.5rem;background:var(--bg);padding:.5rem .75rem;z-index:1}
h1{font-size:1rem;margin:0 0 .5rem;color:var(--muted);font-weight:600}
h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
main>section:first-child>h2{margin-top:.5rem}
h3{font-size:1.1rem;margin:1.5rem 0 .25rem}
.verdict{font-size:1.35rem;line-height:1.35;font-weight:650;margin:0 0 1rem;padding:.75rem 1rem;border-left:.45rem solid var(--tone,var(--skip));background:var(--panel);overflow-wrap:anywhere}
.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem 1rem;margin:0;font-size:.9rem}
.meta dt{color:var(--muted)}
.meta dd{margin:0;overflow-wrap:anywhere}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;padding:0;margin:1rem 0 0;list-style:none}
.totals{display:grid;grid-template-columns:repeat(auto-fit,minmax(7.5rem,1fr));gap:.5rem;list-style:none;padding:0;margin:.5rem 0}
.totals li{border:1px solid var(--line);border-top:.35rem solid var(--tone,var(--skip));border-radius:.3rem;padding:.4rem .75rem}
.totals .n{display:block;font-size:1.75rem;font-weight:700;line-height:1.2}
.badge{min-width:3.75rem;font-size:.75rem;line-height:1.7;padding:0 .35rem}
.scroll{overflow-x:auto}.slices{border-collapse:collapse}.slices th,.slices td{padding:.2rem .6rem;text-align:left}
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
.seen{margin:.25rem 0;font-size:.92rem;overflow-wrap:anywhere}
.exchange-record{border-top:1px solid var(--line);padding:.5rem 0;overflow-wrap:anywhere}
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
.hop-passed .hop-box{background:var(--pass-tint);border-color:var(--pass)}
.hop-stopped .hop-box{background:var(--fail-tint);border:3px solid var(--fail)}
.hop-unreached .hop-box{border-style:dashed;color:var(--muted)}
.link{position:absolute;left:-1.45rem;width:1.3rem;top:1.7rem;border-top:2px solid currentColor;color:var(--pass)}
.link-unreached{border-top-style:dashed;color:var(--line)}
.link::after{content:"";position:absolute;right:-.1rem;top:calc(-.35rem - 1px);border-style:solid;border-width:.35rem 0 .35rem .45rem;border-color:transparent transparent transparent currentColor}
.stop-mark{display:block;margin-top:.35rem;color:var(--fail);font-weight:600;font-size:.8rem;line-height:1.3;text-align:center}
.stop-x{display:inline-block;width:1.15rem;height:1.15rem;border-radius:50%;background:var(--fail);color:var(--bg);font-size:.7rem;line-height:1.15rem;text-align:center;-webkit-print-color-adjust:exact;print-color-adjust:exact}
@media (max-width:34rem){
.request-path{flex-direction:column;align-items:stretch}
.hop+.hop{margin-left:0;margin-top:1.5rem}
.hop-box{min-height:0}
.link{left:50%;top:-1.4rem;width:0;height:1.3rem;border-top:0;border-left:2px solid currentColor}
.link-unreached{border-left-style:dashed}
.link::after{right:auto;top:auto;left:calc(-.35rem - 1px);bottom:-.1rem;border-width:.45rem .35rem 0 .35rem;border-color:currentColor transparent transparent transparent}
}
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

/** history.html: wide tables and inline SVG charts. */
const HISTORY = `
.wrap{padding:1rem 1.25rem}
h1{font-size:1.4rem;margin:0 0 .25rem}
h2{font-size:1.2rem;margin:2.5rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem;overflow-wrap:anywhere}
h3{font-size:1rem;margin:1.25rem 0 .35rem}
.latest{font-weight:650;padding:.4rem .75rem;border-left:.4rem solid var(--tone,var(--skip));background:var(--panel)}
.chart{overflow-x:auto}
.chart svg{display:block;height:auto;font:11px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.chart text{fill:var(--muted)}
.bar,.dot{fill:var(--tone,var(--neutral))}
.axis{stroke:var(--line)}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;padding:0;margin:.25rem 0;font-size:.85rem;color:var(--muted)}
.key{display:inline-block;width:.8rem;height:.8rem;border-radius:.15rem;margin-right:.3rem;vertical-align:-.05rem;background:var(--tone,var(--neutral));-webkit-print-color-adjust:exact;print-color-adjust:exact}
.grid,.runs{overflow-x:auto;border:1px solid var(--line);border-radius:.3rem}
table{border-collapse:collapse;font-size:.8rem;width:100%}
th,td{padding:.2rem .35rem;border-bottom:1px solid var(--line);text-align:center;white-space:nowrap}
.grid th:first-child,.grid td:first-child{text-align:left;position:sticky;left:0;background:var(--bg);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
thead th{font-weight:600;color:var(--muted)}
.runs td.n{text-align:right;font-variant-numeric:tabular-nums}
.runs td.cause{text-align:left;width:100%;max-width:0;min-width:14rem}
.runs td.cause>span{display:block;overflow:hidden;text-overflow:ellipsis}
.badge{min-width:2.6rem;font-size:.7rem;line-height:1.6}
.changes li{margin:.2rem 0}
.marked{color:var(--tone);font-weight:600}
.runs .marked{font-weight:700}
code{font-size:.9em}
`;

/** matrix.html: targets down, requirements across, one tinted cell per outcome. */
const MATRIX = `
body{font-size:15px;line-height:1.45;margin:1rem}
h1{font-size:1.4rem;margin:0 0 .5rem}
h2{font-size:1.1rem;margin:1rem 0 .3rem}
.verdict{font-size:1.1rem;font-weight:600;margin:.5rem 0 1rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse}
caption{text-align:left;font-weight:600;padding:.4rem 0}
th,td{border:1px solid var(--line);padding:.2rem .4rem;text-align:center}
th[scope=row]{text-align:left;white-space:nowrap;position:sticky;left:0;background:var(--bg)}
thead th{position:sticky;top:0;background:var(--panel);font-size:.75rem;writing-mode:vertical-rl;transform:rotate(180deg)}
thead th.name{writing-mode:horizontal-tb;transform:none}
.cell.tone-fail,.cell.tone-error{font-weight:700}
.legend span{display:inline-block;padding:0 .4rem;margin-right:.3rem;border:1px solid var(--line)}
.filter{border:1px solid var(--line);padding:.3rem .6rem;margin:.5rem 0}
.filter label{margin-right:.8rem;white-space:nowrap}
.filter input[type=search]{margin-left:.5rem}
a:focus,input:focus{outline:3px solid var(--focus)}
@media print{.scroll{overflow:visible} thead th{position:static} th[scope=row]{position:static} .filter{display:none}}
`;

const LAYOUTS = { report: REPORT, history: HISTORY, matrix: MATRIX } as const;

/** The stylesheet of one page: the palette and what every page shares, then the page's own layout. */
export function stylesheet(page: keyof typeof LAYOUTS): string {
  return `\n${palette()}${BASE}${LAYOUTS[page]}`;
}
