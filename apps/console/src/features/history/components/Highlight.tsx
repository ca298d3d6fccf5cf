import { Fragment } from 'react';

/** `text` with every occurrence of the keyword's words marked (case-blind), as the search matched them. */
export function Highlight({ text, words }: { text: string; words: string }) {
  const parts = words
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!parts.length || !text) return <>{text}</>;
  const re = new RegExp(`(${parts.join('|')})`, 'giu');
  return (
    <>
      {text
        .split(re)
        .map((piece, i) => (i % 2 ? <mark key={i}>{piece}</mark> : <Fragment key={i}>{piece}</Fragment>))}
    </>
  );
}
