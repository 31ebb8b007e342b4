'use client';
// Added to next/dist/client/components/ by ./apply.mjs (see there for why): the CommonJS twin of
// inlined-stylesheet.mjs, which is the module browsers get.
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, as the file it stands beside in next/dist.
const { jsx } = require('react/jsx-runtime');
const INLINED = Symbol.for('next.inlinedCss');
function InlinedStylesheet({ href, precedence, nonce }) {
    const text = typeof window === 'undefined' ? globalThis[INLINED]?.get(href) : document.querySelector(`style[data-href~="${CSS.escape(href)}"]`)?.textContent;
    if (text == null) return jsx('link', { rel: 'stylesheet', href, precedence, nonce });
    return jsx('style', { href, precedence, nonce, children: text });
}
exports.InlinedStylesheet = InlinedStylesheet;
