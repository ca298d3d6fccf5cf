import { createElement, type ReactNode } from 'react';
import { isSafeRichUrl, richTextElements, type ElementFactory } from '@kefu/protocol';

const make: ElementFactory<ReactNode> = (tag, props, ...children) =>
  createElement(tag, props, ...(children as ReactNode[]));

/** A knowledge answer's rich text (packages/protocol rich-text.ts) as elements, never as HTML. */
export function RichText({ text, testId }: { text: string; testId?: string }) {
  return (
    <span
      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      className="kf-rich"
      data-testid={testId}
    >
      {richTextElements(text, make)}
    </span>
  );
}

export { isSafeRichUrl };
