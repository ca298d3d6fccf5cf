import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Card,
  Col,
  Collapse,
  Descriptions,
  Drawer,
  Input,
  Row,
  Space,
  Spin,
  Statistic,
  Timeline,
  Typography,
} from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  QUALITY_ALLOT_CODE,
  QUALITY_INSPECT_CODE,
  QUALITY_LIMITS,
  type QualityDetailDto,
  type QualityFindingDto,
  type QualitySuggestDto,
  type QualitySuggestionDto,
} from '@kefu/protocol';
import { useCan } from '../../access/components/useCan';
import { formatTime } from '../../../lib/time';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { qualityApi } from '../api';
import { clampScore, emptyDraft, previewScore, toggleCitation, type Draft } from '../model';
import { QualityTranscript } from './QualityTranscript';
import { Scorecard } from './Scorecard';
import { Findings, decisionsOf, type Decisions } from './Findings';
import { AppealPanel } from './AppealPanel';
import { AppealForm } from './AppealForm';
import { OtherChats } from './OtherChats';
import { ScoreCell, StatusTag } from './Tags';

/** The score, the save buttons and the overall comment of an inspection being scored. */
function ScoreBar(props: {
  d: QualityDetailDto;
  draft: Draft;
  decisions: Decisions;
  comment: string;
  onComment: (v: string) => void;
  onSaved: (d: QualityDetailDto) => void;
  onSuggested: (s: QualitySuggestDto) => void;
}) {
  const { t } = useTranslation();
  const { saving, run } = useSaving();
  const asking = useSaving();
  const settings = useQuery({
    queryKey: ['quality', 'settings'],
    queryFn: ({ signal }) => qualityApi.settings(signal),
  });
  const suggest = () =>
    asking.run(async () => {
      const s = await qualityApi.suggest(props.d.row.id);
      if (!s.items.length) notify.warning(t('qc.ai.none'));
      props.onSuggested(s);
    });
  const p = previewScore(props.d.card, props.draft);
  const save = (send: boolean) =>
    run(async () => {
      const saved = await qualityApi.save({
        id: props.d.row.id,
        items: Object.values(props.draft),
        decisions: Object.values(props.decisions),
        comment: props.comment.trim(),
        send,
      });
      notify.success(send ? t('qc.sent') : t('common.done'));
      props.onSaved(saved);
    });
  return (
    <Card size="small" style={{ marginBottom: 8 }}>
      <Space size="large" align="start" wrap>
        <Statistic
          title={t('qc.preview')}
          value={p.score}
          valueStyle={{ color: p.pass ? '#389e0d' : '#cf1322' }}
          suffix={p.pass ? t('qc.pass') : p.fatal ? `${t('qc.fail')} · ${t('qc.fatal')}` : t('qc.fail')}
        />
        <Statistic title={t('qc.col.auto')} value={-props.d.row.autopoints} />
      </Space>
      <Input.TextArea
        rows={2}
        maxLength={QUALITY_LIMITS.comment}
        placeholder={t('qc.comment.overall')}
        value={props.comment}
        onChange={(e) => props.onComment(e.target.value)}
        data-testid="qc-comment-overall"
        style={{ margin: '8px 0' }}
      />
      <Space>
        <Button loading={saving} onClick={() => void save(false)} data-testid="qc-save">
          {t('common.save')}
        </Button>
        <Button type="primary" loading={saving} onClick={() => void save(true)} data-testid="qc-save-send">
          {t('qc.saveSend')}
        </Button>
        {settings.data?.aiSuggest && (
          <Button loading={asking.saving} onClick={() => void suggest()} data-testid="qc-ai-suggest">
            {t('qc.ai.suggest')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

/**
 * One inspection: the transcript beside the card. The inspector scores it (citing messages, adopting
 * automatic findings) and answers appeals; the agent reads it and appeals within the window.
 */
export function InspectionDrawer(props: { id: string | null; onClose: () => void; onChanged: () => void }) {
  const { t } = useTranslation();
  const can = useCan();
  const detail = useQuery({
    queryKey: ['quality', 'detail', props.id],
    queryFn: ({ signal }) => qualityApi.detail(props.id!, signal),
    enabled: !!props.id,
  });
  const d = detail.data;
  const [draft, setDraft] = useState<Draft>({});
  const [comment, setComment] = useState('');
  const [active, setActive] = useState<string | null>(null);
  const [shown, setShown] = useState<string[]>([]);
  const [appealing, setAppealing] = useState(false);
  const [decisions, setDecisions] = useState<Decisions>({});
  const [suggested, setSuggested] = useState<QualitySuggestDto | null>(null);
  // A fresh draft per inspection and whenever the stored scores change (a save, an appeal's end), not
  // when an appeal reply refetches the detail.
  const stored = d
    ? `${d.row.id}:${d.comment}:${JSON.stringify(d.items)}:${JSON.stringify(d.decisions)}`
    : '';
  useEffect(() => {
    if (!d) return;
    setDraft(emptyDraft(d.card, d.items));
    setDecisions(decisionsOf(d.decisions));
    setSuggested(null);
    setComment(d.comment);
    setActive(null);
    setShown([]);
  }, [stored]);
  const seqOf = useMemo(() => new Map((d?.transcript.messages ?? []).map((m) => [m.id, m.seq])), [d]);
  const msgLabel = (id: string) => `#${seqOf.get(id) ?? '…'}`;
  const items = useMemo(() => new Map((d?.card.items ?? []).map((i) => [i.id, i])), [d]);
  const cited = useMemo(() => new Set(Object.values(draft).flatMap((x) => x.messageids)), [draft]);
  const activeIds = new Set(active ? (draft[active]?.messageids ?? []) : shown);
  const changed = () => {
    void detail.refetch();
    props.onChanged();
  };
  const edit = !!d?.can.score;
  // The visitor's other conversations are for inspectors and assigners, not for the agent's own view.
  const work = can([QUALITY_INSPECT_CODE, QUALITY_ALLOT_CODE]);
  const adopt = (f: QualityFindingDto) => {
    const it = active ? items.get(active) : undefined;
    const cur = active ? draft[active] : undefined;
    if (!it || !cur) return;
    setDraft({
      ...draft,
      [it.id]: {
        ...cur,
        score: Math.min(it.points, cur.score + (f.points || 0)),
        messageids: [...new Set([...cur.messageids, ...f.messageids])],
        comment: [cur.comment, `${t(`qc.rule.${f.rule}`)}: ${f.detail}`].filter(Boolean).join('\n'),
      },
    });
  };
  const accept = (s: QualitySuggestionDto) => {
    const it = items.get(s.labelid);
    const cur = draft[s.labelid];
    if (!it || !cur) return;
    setDraft({
      ...draft,
      [it.id]: {
        ...cur,
        score: clampScore(it, s.points),
        messageids: s.messageid ? [...new Set([...cur.messageids, s.messageid])] : cur.messageids,
      },
    });
  };
  const suggestions = useMemo(
    () => new Map((suggested?.items ?? []).map((s) => [s.labelid, s])),
    [suggested],
  );
  const openAppeal = d?.appeals.find((a) => a.state !== 'resolved') ?? null;
  const draftAppeal = openAppeal?.state === 'draft' ? openAppeal : null;
  const contested = new Set(openAppeal?.items.map((i) => i.labelid) ?? []);

  return (
    <Drawer
      open={!!props.id}
      onClose={props.onClose}
      width="94%"
      destroyOnHidden
      data-testid="qc-drawer"
      title={
        d ? (
          <Space wrap>
            {t('qc.inspection')} · {d.row.agentusername} · {d.row.username}
            <StatusTag s={d.row.status} />
            <ScoreCell score={d.row.score} pass={d.row.pass} fatal={d.row.fatal} testId="qc-drawer-score" />
          </Space>
        ) : (
          t('qc.inspection')
        )
      }
    >
      {!d ? (
        <Spin />
      ) : (
        <Row gutter={16} style={{ height: '100%' }}>
          <Col span={10} style={{ height: '100%' }}>
            <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 4 }}>
              {edit
                ? active
                  ? t('qc.cite.hint', { name: items.get(active)?.name })
                  : t('qc.cite.chooseFirst')
                : ''}
            </Typography.Text>
            <div style={{ height: 'calc(100% - 28px)' }}>
              <QualityTranscript
                inspectionid={d.row.id}
                first={d.transcript}
                cited={cited}
                active={activeIds}
                onPick={edit && active ? (m) => setDraft(toggleCitation(draft, active, m)) : undefined}
              />
            </div>
          </Col>
          <Col span={14} style={{ height: '100%', overflowY: 'auto' }}>
            <Descriptions size="small" column={3} style={{ marginBottom: 8 }} data-testid="qc-facts">
              <Descriptions.Item label={t('qc.col.card')}>
                {d.card.name} v{d.card.version}
              </Descriptions.Item>
              <Descriptions.Item label={t('qc.card.base')}>{d.card.base}</Descriptions.Item>
              <Descriptions.Item label={t('qc.card.passmark')}>{d.card.passmark}</Descriptions.Item>
              <Descriptions.Item label={t('qc.col.inspector')}>{d.row.inspectorname}</Descriptions.Item>
              <Descriptions.Item label={t('qc.col.convtime')}>{formatTime(d.row.convtime)}</Descriptions.Item>
              <Descriptions.Item label={t('qc.col.appealuntil')}>
                {formatTime(d.row.appealuntil)}
              </Descriptions.Item>
            </Descriptions>
            {edit && (
              <ScoreBar
                d={d}
                draft={draft}
                decisions={decisions}
                comment={comment}
                onComment={setComment}
                onSaved={() => changed()}
                onSuggested={setSuggested}
              />
            )}
            {edit && suggested && (
              <Typography.Paragraph type="secondary" data-testid="qc-ai-note">
                {t('qc.ai.title')}
                {suggested.dropped > 0 ? ` · ${t('qc.ai.dropped', { n: suggested.dropped })}` : ''}
              </Typography.Paragraph>
            )}
            {!edit && d.comment && (
              <Card size="small" title={t('qc.comment.overall')} style={{ marginBottom: 8 }}>
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="qc-overall">
                  {d.comment}
                </Typography.Paragraph>
              </Card>
            )}
            {d.can.appeal && (
              <Button
                type="primary"
                style={{ marginBottom: 8 }}
                onClick={() => setAppealing(true)}
                data-testid="qc-appeal-open"
              >
                {draftAppeal ? t('qc.appeal.editDraft') : t('qc.appeal.new')}
              </Button>
            )}
            {d.appeals.map((a) => (
              <div key={a.id} style={{ marginBottom: 8 }}>
                <AppealPanel appeal={a} items={items} canArbitrate={d.can.arbitrate} onChanged={changed} />
              </div>
            ))}
            <Scorecard
              card={d.card}
              draft={draft}
              onChange={edit ? setDraft : undefined}
              active={active}
              onActive={(id) => {
                setActive(id);
                setShown([]);
              }}
              msgLabel={msgLabel}
              contested={contested}
              suggestions={edit ? suggestions : undefined}
              onAccept={accept}
            />
            <Collapse
              size="small"
              defaultActiveKey={edit ? ['findings'] : []}
              items={[
                {
                  key: 'findings',
                  label: t('qc.finding.title', { n: d.findings.length }),
                  children: (
                    <Findings
                      findings={d.findings}
                      msgLabel={msgLabel}
                      onShow={(ids) => {
                        setActive(null);
                        setShown(ids);
                      }}
                      onAdopt={edit ? adopt : undefined}
                      canAdopt={!!active}
                      saved={d.decisions}
                      decisions={edit ? decisions : undefined}
                      onDecide={
                        edit ? (x) => setDecisions((cur) => ({ ...cur, [x.findingid]: x })) : undefined
                      }
                    />
                  ),
                },
                ...(work
                  ? [
                      {
                        key: 'other',
                        label: t('qc.other.title'),
                        children: <OtherChats inspectionid={d.row.id} />,
                      },
                    ]
                  : []),
                {
                  key: 'events',
                  label: t('qc.events'),
                  children: (
                    <Timeline
                      items={d.events.map((e) => ({
                        children: (
                          <span>
                            {formatTime(e.createtime)} · {e.username} ·{' '}
                            {t(`qc.event.${e.action}`, { defaultValue: e.action })} {e.detail}
                          </span>
                        ),
                      }))}
                    />
                  ),
                },
              ]}
            />
          </Col>
        </Row>
      )}
      {d && (
        <AppealForm
          open={appealing}
          detail={d}
          draft={draftAppeal}
          onCancel={() => setAppealing(false)}
          onDone={() => {
            setAppealing(false);
            changed();
          }}
        />
      )}
    </Drawer>
  );
}
