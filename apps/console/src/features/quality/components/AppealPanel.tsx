import { useState } from 'react';
import { Button, Card, Descriptions, Input, InputNumber, List, Radio, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  QUALITY_APPEAL_OUTCOMES,
  QUALITY_LIMITS,
  type QualityAppealDto,
  type QualityAppealOutcome,
  type QualityLabelDto,
} from '@kefu/protocol';
import { formatTime } from '../../../lib/time';
import { useSaving } from '../../../lib/saving';
import { qualityApi } from '../api';
import { AppealTag } from './Tags';

/** The reply box of an open appeal (the agent, the inspector or a reviewer). */
function Reply(props: { appealid: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const { saving, run } = useSaving();
  const send = () =>
    run(async () => {
      await qualityApi.appealMessage(props.appealid, text.trim());
      setText('');
      props.onDone();
    });
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input.TextArea
        autoSize={{ minRows: 1, maxRows: 4 }}
        maxLength={QUALITY_LIMITS.comment}
        value={text}
        placeholder={t('qc.thread.placeholder')}
        onChange={(e) => setText(e.target.value)}
        data-testid="qc-thread-input"
      />
      <Button
        type="primary"
        loading={saving}
        disabled={!text.trim()}
        onClick={() => void send()}
        data-testid="qc-thread-send"
      >
        {t('qc.thread.send')}
      </Button>
    </Space.Compact>
  );
}

/** Ending an appeal: upheld (contested items withdrawn), partly (new scores), rejected. */
function Arbitrate(props: {
  appeal: QualityAppealDto;
  items: Map<string, QualityLabelDto>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<QualityAppealOutcome>('upheld');
  const [scores, setScores] = useState<Record<string, number>>(() =>
    Object.fromEntries(props.appeal.items.map((i) => [i.labelid, i.before])),
  );
  const [comment, setComment] = useState('');
  const { saving, run } = useSaving();
  const end = () =>
    run(async () => {
      await qualityApi.endAppeal({
        id: props.appeal.id,
        outcome,
        items:
          outcome === 'partly'
            ? props.appeal.items.map((i) => ({ labelid: i.labelid, score: scores[i.labelid] ?? i.before }))
            : [],
        comment: comment.trim(),
      });
      props.onDone();
    });
  return (
    <Card size="small" title={t('qc.arbitrate.title')} data-testid="qc-arbitrate" style={{ marginTop: 8 }}>
      <Radio.Group value={outcome} onChange={(e) => setOutcome(e.target.value as QualityAppealOutcome)}>
        {QUALITY_APPEAL_OUTCOMES.map((o) => (
          <Radio key={o} value={o} data-testid={`qc-end-outcome-${o}`}>
            {t(`qc.outcome.${o}`)}
          </Radio>
        ))}
      </Radio.Group>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0' }}>
        {t(`qc.outcome.${outcome}.hint`)}
      </Typography.Paragraph>
      {outcome === 'partly' &&
        props.appeal.items.map((i) => {
          const it = props.items.get(i.labelid);
          return (
            <div key={i.labelid} style={{ marginBottom: 4 }}>
              <Typography.Text>{it?.name ?? i.labelid}</Typography.Text>{' '}
              <InputNumber
                size="small"
                min={0}
                max={it?.points}
                precision={0}
                value={scores[i.labelid]}
                data-testid={`qc-end-score-${it?.name ?? i.labelid}`}
                onChange={(v) => setScores((s) => ({ ...s, [i.labelid]: v ?? 0 }))}
              />
            </div>
          );
        })}
      <Input.TextArea
        rows={2}
        maxLength={QUALITY_LIMITS.comment}
        placeholder={t('qc.arbitrate.comment')}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        data-testid="qc-end-comment"
        style={{ margin: '8px 0' }}
      />
      <Button type="primary" loading={saving} onClick={() => void end()} data-testid="qc-end-submit">
        {t('qc.arbitrate.end')}
      </Button>
    </Card>
  );
}

/** One appeal: its state and outcome, the contested items with reasons, the thread, reply and arbitration. */
export function AppealPanel(props: {
  appeal: QualityAppealDto;
  items: Map<string, QualityLabelDto>;
  canArbitrate: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const a = props.appeal;
  const open = a.state === 'submitted' || a.state === 'in_review';
  return (
    <Card
      size="small"
      data-testid="qc-appeal"
      data-state={a.state}
      title={
        <Space>
          {t('qc.appeal.title')}
          <AppealTag s={a.state} outcome={a.outcome} />
        </Space>
      }
      extra={
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatTime(a.submittime ?? a.createtime)}
        </Typography.Text>
      }
    >
      {a.reason && <Typography.Paragraph>{a.reason}</Typography.Paragraph>}
      <Table
        size="small"
        rowKey="labelid"
        pagination={false}
        dataSource={a.items}
        columns={[
          {
            title: t('qc.item.name'),
            render: (_: unknown, i) => props.items.get(i.labelid)?.name ?? i.labelid,
          },
          { title: t('qc.appeal.itemReason'), dataIndex: 'reason' },
          { title: t('qc.appeal.before'), dataIndex: 'before', width: 70 },
          {
            title: t('qc.appeal.after'),
            dataIndex: 'after',
            width: 70,
            render: (v: number | null) => (v === null ? '—' : v),
          },
        ]}
      />
      {a.state === 'resolved' && (
        <Descriptions size="small" column={1} style={{ marginTop: 8 }} data-testid="qc-appeal-result">
          <Descriptions.Item label={t('qc.appeal.score')}>
            <span data-testid="qc-appeal-scores">
              {a.scorebefore} → {a.scoreafter ?? a.scorebefore}
            </span>
          </Descriptions.Item>
          {a.resolvecomment && (
            <Descriptions.Item label={t('qc.arbitrate.comment')}>{a.resolvecomment}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('qc.appeal.resolvetime')}>
            {formatTime(a.resolvetime)}
          </Descriptions.Item>
        </Descriptions>
      )}
      <Typography.Title level={5} style={{ marginTop: 12 }}>
        {t('qc.thread.title')}
      </Typography.Title>
      <List
        size="small"
        data-testid="qc-thread"
        locale={{ emptyText: t('qc.thread.empty') }}
        dataSource={a.messages}
        renderItem={(m) => (
          <List.Item data-testid={`qc-thread-${m.role}`}>
            <List.Item.Meta
              title={
                <Space>
                  {m.username}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(`qc.role.${m.role}`)} · {formatTime(m.createtime)}
                  </Typography.Text>
                </Space>
              }
              description={<span style={{ whiteSpace: 'pre-wrap' }}>{m.text}</span>}
            />
          </List.Item>
        )}
      />
      {open && <Reply appealid={a.id} onDone={props.onChanged} />}
      {open && props.canArbitrate && <Arbitrate appeal={a} items={props.items} onDone={props.onChanged} />}
    </Card>
  );
}
