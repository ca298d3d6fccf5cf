import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button, Input, Popover, Tooltip, Upload } from 'antd';
import {
  AudioOutlined,
  MessageOutlined,
  PaperClipOutlined,
  PictureOutlined,
  SendOutlined,
  SmileOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CLIENT_TEXTS, MESSAGE_MAX_CHARS, type MsgType } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { upload, type UploadKind } from '../api';
import { isVoiceFile } from '../model/messages';
import { QuickReplies } from './QuickReplies';
import { DraftWarning, useDraftCheck } from '../../sensitive/components/DraftWarning';
import { QuickFilesButton } from '../../quickfile/components/QuickFilesButton';
import { ShortcutsButton } from '../../quickfile/components/ShortcutsButton';
import { useShortcuts } from '../../quickfile/api';

const EMOJI =
  '😀 😁 😂 🤣 😊 😇 🙂 😉 😍 😘 😋 😎 🤔 😐 😮 😴 😢 😭 😡 👍 👎 👏 🙏 💪 👌 ✌️ 🤝 🎉 ❤️ 💔 🌹 ☕ 🍰 ⭐ 🔥 ✅ ❌ ❓ ❗ 💡'.split(
    ' ',
  );

interface Props {
  disabled: boolean;
  onSend: (m: { msgtype: MsgType; message?: string; attachmentid?: string; filename?: string }) => void;
  onTyping: (draft: string) => void;
  /** Text picked elsewhere (agent assist): each new `seq` puts it into the draft. */
  picked?: { text: string; seq: number };
  /** What the chat's messaging platform can carry (undefined: a web chat, everything); the others are disabled with the reason. */
  kinds?: readonly MsgType[];
}

/** Text (Enter sends, Shift+Enter breaks the line), emoticons, image/file/voice uploads, canned replies. */
export function Composer({ disabled, onSend, onTyping, picked, kinds }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [quickOpen, setQuickOpen] = useState(false);
  const lastTyping = useRef(0);
  const check = useDraftCheck(text, !disabled);
  const keys = useShortcuts();

  const change = (v: string) => {
    setText(v);
    const now = Date.now();
    if (now - lastTyping.current > 1_000) {
      lastTyping.current = now;
      onTyping(v);
    }
  };
  const insert = (s: string) => change(text + s);
  // A picked answer goes into the draft: as it is when empty, else on a new line.
  const pickedSeq = picked?.seq;
  useEffect(() => {
    if (!picked) return;
    setText((cur) => (cur.trim() ? `${cur}\n${picked.text}` : picked.text));
    // Only a new pick (seq) inserts; the text of the same pick is not inserted twice.
  }, [pickedSeq]);

  const send = () => {
    const v = text.trim();
    if (!v || disabled) return;
    // The server would refuse it: keep the draft so the agent can change it.
    if (check?.block.length) {
      notify.error(t('sw.blockedSend'));
      return;
    }
    onSend({ msgtype: 'text', message: text });
    setText('');
    lastTyping.current = 0;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const press = { ...e, isComposing: e.nativeEvent.isComposing };
    if (keys.isSend(press)) {
      e.preventDefault();
      send();
    } else if (keys.isQuick(press)) {
      e.preventDefault();
      setQuickOpen(true);
    }
  };

  const pick =
    (kind: UploadKind) =>
    async (file: File): Promise<void> => {
      if (kind === 'voice' && !isVoiceFile(file)) {
        notify.error(CLIENT_TEXTS.voiceFormat);
        return;
      }
      if (kind === 'image' && !file.type.startsWith('image/')) {
        notify.error(t('error.image_format'));
        return;
      }
      setUploading(true);
      try {
        const r = await upload(kind, file);
        // Videos travel through the file upload but show as a player.
        const msgtype: MsgType = kind === 'file' && r.mime.startsWith('video/') ? 'video' : kind;
        onSend({ msgtype, attachmentid: r.id, message: r.filename, filename: r.filename });
      } catch {
        // toasted by upload()
      } finally {
        setUploading(false);
      }
    };
  const refused = (kind: MsgType) => kinds !== undefined && !kinds.includes(kind);
  const uploader = (kind: UploadKind, accept: string, icon: ReactNode, label: string) => (
    <Upload
      accept={accept}
      showUploadList={false}
      disabled={disabled || uploading || refused(kind)}
      beforeUpload={(f) => {
        void pick(kind)(f);
        return false;
      }}
      data-testid={`upload-${kind}`}
    >
      <Tooltip title={refused(kind) ? t('channel.cannotSend', { kind: t(`channel.kind.${kind}`) }) : label}>
        <Button
          type="text"
          icon={icon}
          aria-label={label}
          disabled={disabled || uploading || refused(kind)}
          data-testid={`upload-${kind}-btn`}
          data-refused={refused(kind) || undefined}
        />
      </Tooltip>
    </Upload>
  );

  return (
    <div data-testid="composer" style={{ borderTop: '1px solid rgba(5,5,5,0.06)', padding: '4px 12px 12px' }}>
      <div style={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <Popover
          open={emojiOpen}
          onOpenChange={setEmojiOpen}
          trigger="click"
          content={
            <div
              style={{ display: 'grid', gridTemplateColumns: 'repeat(10, 28px)', gap: 2 }}
              data-testid="emoji-panel"
            >
              {EMOJI.map((e) => (
                <button
                  key={e}
                  type="button"
                  onClick={() => {
                    insert(e);
                    setEmojiOpen(false);
                  }}
                  style={{ fontSize: 18, border: 'none', background: 'none', cursor: 'pointer', padding: 0 }}
                >
                  {e}
                </button>
              ))}
            </div>
          }
        >
          <Tooltip title={t('dialogue.emoticon')}>
            <Button
              type="text"
              icon={<SmileOutlined />}
              aria-label={t('dialogue.emoticon')}
              disabled={disabled}
              data-testid="emoji-btn"
            />
          </Tooltip>
        </Popover>
        {uploader('image', 'image/*', <PictureOutlined />, t('dialogue.sendImage'))}
        {uploader('file', '*', <PaperClipOutlined />, t('dialogue.sendFile'))}
        {uploader(
          'voice',
          '.mp3,.ogg,.mpeg,audio/mpeg,audio/ogg,audio/mp3',
          <AudioOutlined />,
          t('dialogue.sendVoice'),
        )}
        <Popover
          open={quickOpen}
          onOpenChange={setQuickOpen}
          trigger="click"
          title={t('dialogue.quickReply')}
          content={
            <QuickReplies
              onPick={(s) => {
                change(s);
                setQuickOpen(false);
              }}
            />
          }
        >
          <Tooltip title={t('dialogue.quickReply')}>
            <Button
              type="text"
              icon={<MessageOutlined />}
              aria-label={t('dialogue.quickReply')}
              disabled={disabled}
              data-testid="quickreply-btn"
            />
          </Tooltip>
        </Popover>
        <QuickFilesButton disabled={disabled || refused('file')} onSend={onSend} />
        <ShortcutsButton />
      </div>
      <DraftWarning check={check} />
      <Input.TextArea
        data-testid="composer-input"
        value={text}
        disabled={disabled}
        maxLength={MESSAGE_MAX_CHARS}
        autoSize={{ minRows: 3, maxRows: 6 }}
        placeholder={
          disabled
            ? t('dialogue.chatOver')
            : keys.send === 'enter'
              ? t('dialogue.inputHint')
              : t('qf.sendKey.ctrlEnter')
        }
        onChange={(e) => change(e.target.value)}
        onKeyDown={onKeyDown}
        variant="borderless"
        style={{ padding: '4px 0' }}
      />
      <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="primary"
          icon={<SendOutlined />}
          onClick={send}
          disabled={disabled || !text.trim()}
          loading={uploading}
          data-testid="composer-send"
        >
          {t('dialogue.send')}
        </Button>
      </div>
    </div>
  );
}
