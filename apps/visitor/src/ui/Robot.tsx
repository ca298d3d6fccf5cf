import { useState } from 'preact/hooks';
import { h, type ComponentChildren, type VNode } from 'preact';
import {
  richTextElements,
  type ElementFactory,
  type MessageDto,
  type VisitorRobotInfo,
} from '@kefu/protocol';
import { t } from '../lib/i18n.js';
import './robot.css';

/** An answer's rich text (rich-text.ts) as elements: never HTML. */
export function RichText({ text }: { text: string }) {
  return <span class="kf-text kf-rich">{richTextElements(text, make)}</span>;
}

const make: ElementFactory<VNode> = (tag, props, ...children) =>
  h(tag, props, ...(children as ComponentChildren[]));

/**
 * A robot line: the answer, or the lead and the suggestions as buttons (a click asks that question), and
 * the items a generated answer cites. Lines replayed without their outcome show their text.
 */
export function RobotContent({ m, onAsk }: { m: MessageDto; onAsk?: (question: string) => void }) {
  const r = m.robot;
  if (r?.action === 'suggest' && r.suggestions.length) {
    return (
      <div data-testid="robot-suggest">
        <span class="kf-text">{r.lead}</span>
        <div class="kf-suggest">
          {r.suggestions.map((s) => (
            <button
              key={s.id}
              type="button"
              disabled={!onAsk}
              onClick={() => onAsk?.(s.question)}
              data-testid="robot-suggestion"
            >
              {s.question}
            </button>
          ))}
        </div>
      </div>
    );
  }
  return (
    <div data-testid="robot-answer">
      <RichText text={m.message} />
      {r && r.cites.length > 0 && r.action === 'answer' && r.itemid === null && (
        <div class="kf-cites" data-testid="robot-cites">
          {t('robotCites')}
          {r.cites.map((c) => c.question).join('；')}
        </div>
      )}
    </div>
  );
}

/** An administrator's image URL, drawn only when it is http(s) or on this server ('' otherwise). */
export function safeImage(url: string): string {
  return /^(https?:\/\/|\/(?!\/))/i.test(url.trim()) ? url.trim() : '';
}

/** Above the composer while the robot serves the chat: who answers, and the 转人工 button. */
export function RobotBar({ robot, onHuman }: { robot: VisitorRobotInfo; onHuman: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const avatar = safeImage(robot.avatar);
  return (
    <div class="kf-robotbar" data-testid="robot-bar">
      <span class="kf-robotbar-who">
        {avatar && <img class="kf-robot-avatar" src={avatar} alt="" data-testid="robot-avatar" />}
        {t('robotServing', { name: robot.name })}
      </span>
      {robot.handoffButton && (
        <button
          type="button"
          disabled={busy}
          data-testid="robot-human"
          onClick={() => {
            setBusy(true);
            void onHuman().finally(() => setBusy(false));
          }}
        >
          {t('toHuman')}
        </button>
      )}
    </div>
  );
}
