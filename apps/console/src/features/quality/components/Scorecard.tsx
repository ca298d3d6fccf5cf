import { Button, Card, Input, InputNumber, Space, Tag, Typography, theme } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  QUALITY_LIMITS,
  type QualityLabelDto,
  type QualityScorecardDto,
  type QualitySuggestionDto,
} from '@kefu/protocol';
import { clampScore, groupItems, type Draft } from '../model';

/**
 * The card beside the transcript: per item the score (0..points), the cited messages and a comment.
 * Clicking an item (or typing in it) chooses it; then clicking messages in the transcript cites them; its
 * cite button toggles the choice. Read-only for the
 * agent and for results already sent.
 */
export function Scorecard(props: {
  card: QualityScorecardDto;
  draft: Draft;
  onChange?: (d: Draft) => void;
  active: string | null;
  onActive: (labelid: string | null) => void;
  msgLabel: (messageid: string) => string;
  /** Items contested in an appeal (marked). */
  contested?: ReadonlySet<string>;
  /** Scores without a transcript (batch scoring): no citing. */
  noCite?: boolean;
  /** AI suggestions shown beside the items (never a score until accepted). */
  suggestions?: ReadonlyMap<string, QualitySuggestionDto>;
  onAccept?: (s: QualitySuggestionDto) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const edit = !!props.onChange;
  const set = (it: QualityLabelDto, patch: Partial<Draft[string]>) => {
    const cur = props.draft[it.id];
    if (cur && props.onChange) props.onChange({ ...props.draft, [it.id]: { ...cur, ...patch } });
  };
  const row = (it: QualityLabelDto) => {
    const d = props.draft[it.id];
    if (!d) return null;
    const chosen = props.active === it.id;
    return (
      <div
        key={it.id}
        data-testid={`qc-item-row-${it.name}`}
        data-active={chosen ? '1' : '0'}
        onClick={() => props.onActive(it.id)}
        style={{
          padding: '8px 10px',
          marginBottom: 6,
          borderRadius: token.borderRadius,
          cursor: 'pointer',
          border: `1px solid ${chosen ? token.colorError : token.colorBorderSecondary}`,
          background:
            d.score > 0 ? (it.kind === 'add' ? token.colorSuccessBg : token.colorWarningBg) : undefined,
        }}
      >
        <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
          <span>
            <Typography.Text strong>{it.name}</Typography.Text>{' '}
            <Tag color={it.kind === 'add' ? 'green' : 'orange'}>
              {it.kind === 'add' ? '+' : '−'}0~{it.points}
            </Tag>
            {it.fatal && <Tag color="magenta">{t('qc.fatal')}</Tag>}
            {props.contested?.has(it.id) && <Tag color="gold">{t('qc.appeal.contested')}</Tag>}
            {it.description && (
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                {it.description}
              </Typography.Text>
            )}
          </span>
          <span>
            {edit ? (
              <InputNumber
                size="small"
                min={0}
                max={it.points}
                precision={0}
                value={d.score}
                style={{ width: 72 }}
                data-testid={`qc-score-${it.name}`}
                onChange={(v) => set(it, { score: clampScore(it, v ?? 0) })}
              />
            ) : (
              <Typography.Text strong data-testid={`qc-score-${it.name}`} data-score={d.score}>
                {d.score ? `${it.kind === 'add' ? '+' : '−'}${d.score}` : '0'}
              </Typography.Text>
            )}
          </span>
        </Space>
        <div style={{ marginTop: 4 }}>
          {edit && !props.noCite && (
            <Button
              size="small"
              type={chosen ? 'primary' : 'dashed'}
              danger={chosen}
              icon={<AimOutlined />}
              data-testid={`qc-cite-${it.name}`}
              onClick={(e) => {
                e.stopPropagation();
                props.onActive(chosen ? null : it.id);
              }}
            >
              {chosen ? t('qc.cite.picking') : t('qc.cite.start')}
            </Button>
          )}{' '}
          {d.messageids.map((m) => (
            <Tag
              key={m}
              closable={edit}
              color="volcano"
              data-testid={`qc-cited-${it.name}`}
              onClose={() => set(it, { messageids: d.messageids.filter((x) => x !== m) })}
              onClick={() => props.onActive(it.id)}
            >
              {props.msgLabel(m)}
            </Tag>
          ))}
        </div>
        {props.suggestions?.has(it.id) && (
          <AiSuggestion
            s={props.suggestions.get(it.id)!}
            kind={it.kind}
            name={it.name}
            msgLabel={props.msgLabel}
            onAccept={edit ? props.onAccept : undefined}
          />
        )}
        {edit ? (
          <Input.TextArea
            size="small"
            autoSize={{ minRows: 1, maxRows: 3 }}
            maxLength={QUALITY_LIMITS.comment}
            placeholder={t('qc.comment.item')}
            value={d.comment}
            style={{ marginTop: 6 }}
            data-testid={`qc-comment-${it.name}`}
            onChange={(e) => set(it, { comment: e.target.value })}
          />
        ) : (
          d.comment && (
            <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0', whiteSpace: 'pre-wrap' }}>
              {d.comment}
            </Typography.Paragraph>
          )
        )}
      </div>
    );
  };
  return (
    <div data-testid="qc-scorecard">
      {groupItems(props.card.items).map(([group, items]) => (
        <Card
          key={group || '-'}
          size="small"
          title={group || t('qc.item.ungrouped')}
          style={{ marginBottom: 8 }}
        >
          {items.map(row)}
        </Card>
      ))}
    </div>
  );
}

/** One AI suggestion under its item: the points, the verbatim quote and its message, and Accept. */
function AiSuggestion(props: {
  s: QualitySuggestionDto;
  kind: QualityLabelDto['kind'];
  name: string;
  msgLabel: (messageid: string) => string;
  onAccept?: (s: QualitySuggestionDto) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { s } = props;
  return (
    <div
      data-testid={`qc-ai-${props.name}`}
      onClick={(e) => e.stopPropagation()}
      style={{
        marginTop: 6,
        padding: '4px 8px',
        borderRadius: token.borderRadius,
        border: `1px dashed ${token.colorPrimaryBorder}`,
      }}
    >
      <Tag color="geekblue">
        {t('qc.ai.suggest')} {s.points ? `${props.kind === 'add' ? '+' : '−'}${s.points}` : '0'}
      </Tag>
      {s.quote && <Typography.Text italic>“{s.quote}”</Typography.Text>}{' '}
      {s.messageid && <Tag>{props.msgLabel(s.messageid)}</Tag>}
      {props.onAccept && (
        <Button
          size="small"
          type="link"
          data-testid={`qc-ai-accept-${props.name}`}
          onClick={() => props.onAccept?.(s)}
        >
          {t('qc.ai.accept')}
        </Button>
      )}
    </div>
  );
}
