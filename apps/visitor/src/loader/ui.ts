import type { ConsultIcon, WidgetConfig } from '../lib/config.js';

/** Tiny DOM helper: text only through textContent, never innerHTML with configured text. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const ICON_PATHS: Record<ConsultIcon, string> = {
  chat: 'M12 3C6.5 3 2 6.9 2 11.6c0 2.5 1.3 4.8 3.4 6.4L4.6 21l3.6-1.8c1.2.4 2.5.6 3.8.6 5.5 0 10-3.9 10-8.6S17.5 3 12 3zm-4.5 9.9a1.3 1.3 0 110-2.6 1.3 1.3 0 010 2.6zm4.5 0a1.3 1.3 0 110-2.6 1.3 1.3 0 010 2.6zm4.5 0a1.3 1.3 0 110-2.6 1.3 1.3 0 010 2.6z',
  service:
    'M12 2a8 8 0 00-8 8v6a3 3 0 003 3h1v-7H6v-2a6 6 0 0112 0v2h-2v7h1a2 2 0 01-2 2h-3v1h3a3 3 0 003-3v-.2A3 3 0 0020 16v-6a8 8 0 00-8-8z',
  phone:
    'M6.6 10.8a15.1 15.1 0 006.6 6.6l2.2-2.2a1 1 0 011-.25c1.1.37 2.3.57 3.6.57a1 1 0 011 1V20a1 1 0 01-1 1A17 17 0 013 4a1 1 0 011-1h3.5a1 1 0 011 1c0 1.25.2 2.45.57 3.57a1 1 0 01-.25 1z',
  message:
    'M4 4h16a2 2 0 012 2v12a2 2 0 01-2 2H4a2 2 0 01-2-2V6a2 2 0 012-2zm0 4.2V18h16V8.2l-8 5-8-5zM4.6 6L12 10.6 19.4 6H4.6z',
};

/** The consult button's built-in icons (the settings choose one by name). */
export function chatIcon(kind: ConsultIcon): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '22');
  svg.setAttribute('height', '22');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(SVG_NS, 'path');
  p.setAttribute('fill', 'currentColor');
  p.setAttribute('d', ICON_PATHS[kind]);
  svg.appendChild(p);
  return svg;
}

/** Styles inside the widget's shadow root (the host page's CSS cannot leak in). */
export function css(c: WidgetConfig): string {
  const [h, v] = c.consult.position.split('-') as ['left' | 'right', 'bottom' | 'middle'];
  const vpos = v === 'middle' ? 'top:50%;transform:translateY(-50%);' : 'bottom:24px;';
  return `
:host{all:initial}
*{box-sizing:border-box;font-family:-apple-system,BlinkMacSystemFont,"PingFang SC","Microsoft YaHei",sans-serif}
.btn{position:fixed;${h}:24px;${vpos}z-index:2147483000;display:flex;align-items:center;gap:8px;
 padding:0 18px;height:48px;border:0;border-radius:24px;background:${c.consult.color};color:#fff;font-size:15px;
 cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.18);transition:transform .15s}
.btn:hover{transform:${v === 'middle' ? 'translateY(-50%) ' : ''}scale(1.04)}
.btn img{width:24px;height:24px;object-fit:contain}
.badge{position:absolute;top:-4px;${h === 'right' ? 'left' : 'right'}:-4px;min-width:20px;height:20px;padding:0 6px;
 border-radius:10px;background:#f5222d;color:#fff;font-size:12px;line-height:20px;text-align:center}
.panel{position:fixed;${h}:24px;bottom:24px;z-index:2147483001;width:${c.dialogue.width}px;
 height:min(${c.dialogue.height}px,calc(100vh - 48px));max-width:calc(100vw - 32px);border-radius:14px;overflow:hidden;
 background:#fff;box-shadow:0 12px 40px rgba(0,0,0,.22)}
.panel iframe{width:100%;height:100%;border:0;display:block}
.invite{position:fixed;left:50%;top:50%;transform:translate(-50%,-50%);z-index:2147483002;width:320px;max-width:calc(100vw - 32px);
 background:#fff;border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.25);padding:20px;color:#1f2329}
.invite img{display:block;max-width:100%;border-radius:8px;margin-bottom:10px}
.invite h3{margin:0 0 8px;font-size:16px}
.invite p{margin:0 0 16px;line-height:1.6;color:#4e5969;font-size:14px;white-space:pre-wrap}
.invite .row{display:flex;gap:8px;justify-content:flex-end}
.invite button{height:34px;padding:0 14px;border-radius:8px;border:1px solid #e5e8ee;background:#fff;cursor:pointer;font-size:14px}
.invite .go{background:${c.consult.color};border-color:${c.consult.color};color:#fff}
[hidden]{display:none!important}
`;
}
