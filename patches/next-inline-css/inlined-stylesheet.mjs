'use client';
// Added to next/dist/esm/client/components/ by ./apply.mjs (see there for why).
import { jsx } from 'react/jsx-runtime';
const INLINED = Symbol.for('next.inlinedCss');
/** The inlined stylesheet at `href`: its text from the server's render, or in the browser from the <style> already in the document. */
export function InlinedStylesheet({ href, precedence, nonce }) {
    const text = typeof window === 'undefined' ? globalThis[INLINED]?.get(href) : document.querySelector(`style[data-href~="${CSS.escape(href)}"]`)?.textContent;
    if (text == null) return jsx('link', { rel: 'stylesheet', href, precedence, nonce });
    return jsx('style', { href, precedence, nonce, children: text });
}
