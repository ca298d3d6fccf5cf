import { useState } from 'react';
import { Button, Form, Input, InputNumber, List, Modal, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  QUALITY_LIMITS,
  type QualityFindingDecision,
  type QualityFindingDecisionDto,
  type QualityFindingDto,
} from '@kefu/protocol';
import { duration } from '../../history/components/format';
import { formatTime } from '../../../lib/time';

/** Values measured in ms by these rules (the others count or name a level). */
const TIMED = new Set(['first_response', 'silence', 'abandoned']);

/** The inspector's decision on a finding while scoring (sent with save). */
export interface DecisionDraft {
  findingid: string;
  decision: QualityFindingDecision;
  points?: number;
  reason: string;
}
export type Decisions = Record<string, DecisionDraft>;

export const decisionsOf = (saved: readonly QualityFindingDecisionDto[]): Decisions =>
  Object.fromEntries(
    saved.map((x) => [
      x.findingid,
      {
        findingid: x.findingid,
        decision: x.decision,
        ...(x.points === null ? {} : { points: x.points }),
        reason: x.reason,
      },
    ]),
  );

/**
 * What the automatic rules found, each with the messages it cites (clicking them outlines them in the
 * transcript) and its automatic points, kept apart from the inspector's score. While scoring, the
 * inspector confirms or overrides each finding (override asks for points and a reason; saving records a
 * finding left undecided as confirmed), and "adopt" puts a finding on the chosen item.
 */
export function Findings(props: {
  findings: QualityFindingDto[];
  msgLabel: (messageid: string) => string;
  onShow: (messageids: string[]) => void;
  onAdopt?: (f: QualityFindingDto) => void;
  canAdopt: boolean;
  /** Stored decisions (who and when). */
  saved: QualityFindingDecisionDto[];
  /** The decisions being made (scoring); undefined: read-only. */
  decisions?: Decisions;
  onDecide?: (d: DecisionDraft) => void;
}) {
  const { t } = useTranslation();
  const [overriding, setOverriding] = useState<{
    f: QualityFindingDto;
    points: number;
    reason: string;
  } | null>(null);
  const [form] = Form.useForm<{ points: number; reason: string }>();
  if (!props.findings.length)
    return <Typography.Text type="secondary">{t('qc.finding.none')}</Typography.Text>;
  const stored = new Map(props.saved.map((x) => [x.findingid, x]));
  const state = (f: QualityFindingDto) => {
    const d = props.decisions?.[f.id] ?? stored.get(f.id);
    if (!d) return <Tag data-testid={`qc-finding-decision-${f.rule}`}>{t('qc.finding.pending')}</Tag>;
    const who = stored.get(f.id);
    const tag =
      d.decision === 'overridden' ? (
        <Tag color="red" data-testid={`qc-finding-decision-${f.rule}`} data-decision="overridden">
          {t('qc.finding.overridden', { points: d.points ?? 0 })}
        </Tag>
      ) : (
        <Tag color="green" data-testid={`qc-finding-decision-${f.rule}`} data-decision="confirmed">
          {t('qc.finding.confirmed')}
        </Tag>
      );
    return (
      <Tooltip
        title={who ? t('qc.finding.by', { name: who.username, time: formatTime(who.createtime) }) : undefined}
      >
        <span>
          {tag}
          {d.decision === 'overridden' && d.reason && (
            <Typography.Text type="secondary">{d.reason} </Typography.Text>
          )}
        </span>
      </Tooltip>
    );
  };
  const decide = props.onDecide;
  return (
    <>
      <List
        size="small"
        data-testid="qc-findings"
        dataSource={props.findings}
        renderItem={(f) => (
          <List.Item
            data-testid={`qc-finding-${f.rule}`}
            actions={
              decide
                ? [
                    <Button
                      key="c"
                      size="small"
                      type="link"
                      data-testid={`qc-finding-confirm-${f.rule}`}
                      onClick={() => decide({ findingid: f.id, decision: 'confirmed', reason: '' })}
                    >
                      {t('qc.finding.confirm')}
                    </Button>,
                    <Button
                      key="o"
                      size="small"
                      type="link"
                      danger
                      data-testid={`qc-finding-override-${f.rule}`}
                      onClick={() => {
                        const cur = props.decisions?.[f.id];
                        setOverriding({
                          f,
                          points: cur?.decision === 'overridden' ? (cur.points ?? 0) : 0,
                          reason: cur?.reason ?? '',
                        });
                      }}
                    >
                      {t('qc.finding.override')}
                    </Button>,
                    ...(props.onAdopt
                      ? [
                          <Tooltip key="a" title={props.canAdopt ? '' : t('qc.finding.chooseItem')}>
                            <Button
                              size="small"
                              type="link"
                              disabled={!props.canAdopt}
                              data-testid={`qc-adopt-${f.rule}`}
                              onClick={() => props.onAdopt?.(f)}
                            >
                              {t('qc.finding.adopt')}
                            </Button>
                          </Tooltip>,
                        ]
                      : []),
                  ]
                : undefined
            }
          >
            <div>
              <Tooltip title={t(`qc.rule.${f.rule}.hint`)}>
                <Tag color="purple">{t(`qc.rule.${f.rule}`)}</Tag>
              </Tooltip>
              {f.points > 0 && <Tag color="orange">{t('qc.finding.auto', { points: f.points })}</Tag>}
              <Typography.Text>
                {TIMED.has(f.rule) && f.value ? `${duration(t, f.value)} ` : ''}
                {f.detail}
              </Typography.Text>{' '}
              {f.messageids.map((m) => (
                <Tag key={m} style={{ cursor: 'pointer' }} onClick={() => props.onShow(f.messageids)}>
                  {props.msgLabel(m)}
                </Tag>
              ))}
              <div style={{ marginTop: 2 }}>{state(f)}</div>
            </div>
          </List.Item>
        )}
      />
      <Modal
        open={!!overriding}
        title={overriding ? t('qc.finding.overrideTitle', { rule: t(`qc.rule.${overriding.f.rule}`) }) : ''}
        onCancel={() => setOverriding(null)}
        okButtonProps={{ 'data-testid': 'qc-override-ok' } as Record<string, string>}
        onOk={() =>
          void form.validateFields().then((v) => {
            if (!overriding) return;
            decide?.({
              findingid: overriding.f.id,
              decision: 'overridden',
              points: v.points,
              reason: (v.reason ?? '').trim(),
            });
            setOverriding(null);
          })
        }
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          key={overriding?.f.id ?? ''}
          initialValues={{ points: overriding?.points ?? 0, reason: overriding?.reason ?? '' }}
        >
          <Space direction="vertical" style={{ width: '100%' }}>
            <Form.Item
              name="points"
              label={t('qc.finding.points')}
              rules={[{ required: true, message: t('qc.finding.points') }]}
            >
              <InputNumber
                min={0}
                max={QUALITY_LIMITS.maxPoints}
                precision={0}
                data-testid="qc-override-points"
              />
            </Form.Item>
            <Form.Item name="reason" label={t('qc.finding.reason')}>
              <Input.TextArea rows={2} maxLength={QUALITY_LIMITS.comment} data-testid="qc-override-reason" />
            </Form.Item>
          </Space>
        </Form>
      </Modal>
    </>
  );
}
