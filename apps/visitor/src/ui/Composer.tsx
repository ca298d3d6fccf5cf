import { useRef, useState } from 'preact/hooks';
import { MESSAGE_MAX_CHARS } from '@kefu/protocol';
import { checkUpload, upload, type Credential } from '../chat/api.js';
import type { ChatClient } from '../chat/client.js';
import { t } from '../lib/i18n.js';
import { ClipIcon, ImageIcon, SmileIcon } from './icons.js';

export const EMOJI = [
  '😀',
  '😂',
  '😊',
  '😍',
  '🤔',
  '😅',
  '😢',
  '😡',
  '👍',
  '👎',
  '👏',
  '🙏',
  '💪',
  '🎉',
  '❤️',
  '🌹',
  '☕',
  '✅',
  '❌',
  '❓',
];

interface Props {
  client: ChatClient;
  credential: Credential;
  onError: (message: string) => void;
}

/** Text box with emoticons, image and file upload; Enter sends, Shift+Enter breaks the line. */
export function Composer({ client, credential, onError }: Props) {
  const [text, setText] = useState('');
  const [emoji, setEmoji] = useState(false);
  const [uploading, setUploading] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const lastWriting = useRef(0);

  const send = () => {
    const v = text.trim();
    if (!v) return;
    client.send('text', v.slice(0, MESSAGE_MAX_CHARS));
    setText('');
    setEmoji(false);
    box.current?.focus();
  };
  const typed = (v: string) => {
    setText(v);
    if (Date.now() - lastWriting.current > 1500) {
      lastWriting.current = Date.now();
      client.writing(v);
    }
  };
  const pick = async (e: Event, kind: 'image' | 'file') => {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const bad = checkUpload(file, kind);
    if (bad) return onError(bad);
    setUploading(t('uploading', { name: file.name }));
    const res = await upload(location.origin, credential, file, kind);
    setUploading('');
    if (!res.ok) return onError(t('uploadFailed', { reason: res.message }));
    client.send(kind, '', { id: res.data.id, filename: res.data.filename, size: res.data.size });
  };

  return (
    <div class="kf-composer">
      {emoji && (
        <div class="kf-emoji" role="listbox" aria-label={t('emoji')}>
          {EMOJI.map((x) => (
            <button type="button" key={x} onClick={() => setText(text + x)}>
              {x}
            </button>
          ))}
        </div>
      )}
      {uploading && <div class="kf-uploading">{uploading}</div>}
      <div class="kf-tools">
        <button
          type="button"
          class="kf-tool"
          title={t('emoji')}
          aria-label={t('emoji')}
          onClick={() => setEmoji(!emoji)}
        >
          <SmileIcon />
        </button>
        <label class="kf-tool" title={t('image')} aria-label={t('image')}>
          <ImageIcon />
          <input
            type="file"
            accept="image/*"
            hidden
            onChange={(e) => void pick(e, 'image')}
            data-testid="pick-image"
          />
        </label>
        <label class="kf-tool" title={t('file')} aria-label={t('file')}>
          <ClipIcon />
          <input type="file" hidden onChange={(e) => void pick(e, 'file')} data-testid="pick-file" />
        </label>
      </div>
      <div class="kf-input">
        <textarea
          ref={box}
          rows={2}
          value={text}
          maxLength={MESSAGE_MAX_CHARS}
          placeholder={t('placeholder')}
          aria-label={t('placeholder')}
          onInput={(e) => typed(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button type="button" class="kf-btn kf-btn-primary kf-send" onClick={send} disabled={!text.trim()}>
          {t('send')}
        </button>
      </div>
    </div>
  );
}
