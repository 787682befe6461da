/**
 * The widget's style sheet, inside its shadow root: the page's CSS cannot reach in, except through
 * the custom properties below, which inherit into the shadow root from the element or any ancestor
 * (docs/widget.md, "Theming"). The defaults pass WCAG AA contrast (4.5:1 for text, 3:1 for borders
 * and focus rings) on the default background; a page that themes keeps its own pairs readable.
 */
export const styles = `
:host{display:block;max-width:30rem;
--a:var(--brigade-accent,#0a58a8);--at:var(--brigade-accent-text,#fff);--t:var(--brigade-text,#1c1c1c);
--m:var(--brigade-muted,#545454);--bg:var(--brigade-background,#fff);--b:var(--brigade-border,#767676);
--e:var(--brigade-error,#b3261e);--r:var(--brigade-radius,8px)}
:host([hidden]){display:none}
.box{font-family:var(--brigade-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-size:1rem;line-height:1.45;
color:var(--t);background:var(--bg);border:1px solid var(--b);border-radius:var(--r);padding:1rem 1.25rem}
h2{font-size:1.3rem;margin:0 0 .75rem;line-height:1.25}
h2:focus{outline:none}h2:focus-visible{outline:2px dotted var(--a);outline-offset:2px}
p{margin:.5rem 0}
.muted{color:var(--m);font-size:.9rem}
label{display:block;font-weight:600;margin:.8rem 0 .25rem}
input,select,textarea{font:inherit;color:var(--t);background:var(--bg);width:100%;box-sizing:border-box;
padding:.5rem .6rem;border:1px solid var(--b);border-radius:calc(var(--r)/2)}
textarea{min-height:4rem;resize:vertical}
[aria-invalid=true]{border-color:var(--e);border-width:2px}
button{font:inherit;font-weight:600;cursor:pointer;border:2px solid var(--a);border-radius:var(--r);
padding:.55rem 1rem;background:var(--a);color:var(--at)}
button.alt{background:var(--bg);color:var(--a)}
button:disabled{cursor:wait;opacity:.75}
:focus-visible{outline:3px solid var(--a);outline-offset:2px}
.row{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}
.times{list-style:none;margin:.75rem 0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.5rem}
.times li{display:flex}.times button{width:100%;padding:.5rem .25rem}
.times .full{background:var(--bg);color:var(--t);border:2px dashed var(--b);font-weight:400}
.times small{display:block;font-size:.8rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.75rem 0}
dt{font-weight:600}dd{margin:0}
.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:1.35rem;font-weight:700;letter-spacing:.06em;
overflow-wrap:anywhere;margin:.25rem 0 .75rem}
a{color:var(--a);font-weight:600}
.msg:empty{display:none}
.msg{margin:.75rem 0 0;padding:.5rem .75rem;border-radius:calc(var(--r)/2);border-left:4px solid var(--a)}
.msg.error{border-color:var(--e);color:var(--e);font-weight:600}
.msg ul{margin:.25rem 0 0;padding-left:1.2rem}
`;
