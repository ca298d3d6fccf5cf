import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QualityAppealOutcome, QualityAppealState, QualityStatus } from '@kefu/protocol';

const STATUS_COLOR: Record<QualityStatus, string> = { allotted: 'default', done: 'blue', sent: 'green' };
const APPEAL_COLOR: Record<QualityAppealState, string> = {
  draft: 'default',
  submitted: 'orange',
  in_review: 'gold',
  resolved: 'green',
};
const OUTCOME_COLOR: Record<QualityAppealOutcome, string> = {
  upheld: 'green',
  partly: 'blue',
  rejected: 'red',
};

export function StatusTag({ s }: { s: QualityStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLOR[s]}>{t(`qc.status.${s}`)}</Tag>;
}

export function AppealTag({
  s,
  outcome,
}: {
  s: QualityAppealState | null;
  outcome?: QualityAppealOutcome | null;
}) {
  const { t } = useTranslation();
  if (!s) return null;
  return (
    <>
      <Tag color={APPEAL_COLOR[s]} data-testid="qc-appeal-state" data-state={s}>
        {t(`qc.appeal.${s}`)}
      </Tag>
      {outcome && <Tag color={OUTCOME_COLOR[outcome]}>{t(`qc.outcome.${outcome}`)}</Tag>}
    </>
  );
}

/** Score with pass / fail (and the fatal mark); a dash until scored. */
export function ScoreCell(props: {
  score: number | null;
  pass: boolean | null;
  fatal?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (props.score === null) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <span data-testid={props.testId} data-score={props.score}>
      <Typography.Text strong>{props.score}</Typography.Text>{' '}
      <Tag color={props.pass ? 'green' : 'red'}>{props.pass ? t('qc.pass') : t('qc.fail')}</Tag>
      {props.fatal && <Tag color="magenta">{t('qc.fatal')}</Tag>}
    </span>
  );
}
