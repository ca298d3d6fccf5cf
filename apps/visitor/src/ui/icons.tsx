/** Inline SVG icons (no dependency on an emoji font being installed). */
const icon = (d: string) =>
  function Icon() {
    return (
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path fill="currentColor" d={d} />
      </svg>
    );
  };

export const SmileIcon = icon(
  'M12 2a10 10 0 100 20 10 10 0 000-20zm0 18a8 8 0 110-16 8 8 0 010 16zm-3.5-9a1.5 1.5 0 100-3 1.5 1.5 0 000 3zm7 0a1.5 1.5 0 100-3 1.5 1.5 0 000 3zM12 17.5c2.3 0 4.3-1.4 5.1-3.5H6.9c.8 2.1 2.8 3.5 5.1 3.5z',
);
export const ImageIcon = icon(
  'M19 3H5a2 2 0 00-2 2v14a2 2 0 002 2h14a2 2 0 002-2V5a2 2 0 00-2-2zm0 16H5V5h14v14zm-5.1-6.8l-2.8 3.5-2-2.4L6 17h12l-4.1-4.8zM8.5 10a1.5 1.5 0 100-3 1.5 1.5 0 000 3z',
);
export const ClipIcon = icon(
  'M16.5 6.5v10.6a4.5 4.5 0 01-9 0V5.8a3 3 0 016 0v10.3a1.5 1.5 0 01-3 0V6.5H9v9.6a3 3 0 006 0V5.8a4.5 4.5 0 00-9 0v11.3a6 6 0 0012 0V6.5h-1.5z',
);
export const FileIcon = icon(
  'M14 2H6a2 2 0 00-2 2v16a2 2 0 002 2h12a2 2 0 002-2V8l-6-6zm4 18H6V4h7v5h5v11zM8 13h8v2H8v-2zm0 4h8v2H8v-2z',
);
/** A headset: the chat window's default avatar when the access point has no logo. */
export const AgentIcon = icon(
  'M12 2a8 8 0 00-8 8v6a3 3 0 003 3h1v-7H6v-2a6 6 0 0112 0v2h-2v7h1.2A2 2 0 0115 20.5h-3V22h3a3.5 3.5 0 003.4-2.7A3 3 0 0020 16v-6a8 8 0 00-8-8z',
);
