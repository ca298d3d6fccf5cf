import { useEffect } from 'react';
import { Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { SystemLineDto } from '@kefu/protocol';
import { useDialogue } from '../store';

const NO_LINES: SystemLineDto[] = [];

/** A conversation's system lines, read once when it is first shown (the runtime refreshes them on `over`). */
export function useSystemLines(sid: string): readonly SystemLineDto[] {
  const lines = useDialogue((s) => s.systemLines[sid] ?? NO_LINES);
  useEffect(() => {
    if (sid && !useDialogue.getState().systemLines[sid]) void useDialogue.getState().loadSystemLines(sid);
  }, [sid]);
  return lines;
}

/** A notice the visitor got (welcome, assignment, transfer, end), centred like the stored system lines. */
export function SystemLine({ line }: { line: SystemLineDto }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // A transfer without a transfer text showed the visitor nothing of its own: say what happened.
  const text = line.text || t(`dialogue.system.${line.kind}`, { agent: line.agent });
  return (
    <div
      data-testid="message-system"
      data-kind={line.kind}
      style={{ display: 'flex', justifyContent: 'center', margin: '10px 0' }}
    >
      <span
        style={{
          background: token.colorFillQuaternary,
          color: token.colorTextSecondary,
          borderRadius: 12,
          padding: '2px 12px',
          fontSize: 12,
          maxWidth: '85%',
          textAlign: 'center',
        }}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineEnd: 6 }}>
          {dayjs(line.createtime).format('HH:mm')}
        </Typography.Text>
        {text}
      </span>
    </div>
  );
}
