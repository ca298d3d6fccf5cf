import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { QualityRowDto } from '@kefu/protocol';
import { formatTime } from '../../../lib/time';
import { AppealTag, ScoreCell, StatusTag } from './Tags';

type Column = ColumnsType<QualityRowDto>[number];
export type RowColumn =
  | 'convtime'
  | 'agent'
  | 'visitor'
  | 'card'
  | 'status'
  | 'score'
  | 'auto'
  | 'appeal'
  | 'inspector'
  | 'allottime'
  | 'sendtime'
  | 'appealuntil';

/** The columns an inspection row can show (assignment, inspection and the agent's own lists pick theirs). */
export function rowColumns(t: TFunction, keys: readonly RowColumn[]): ColumnsType<QualityRowDto> {
  const time = (k: 'convtime' | 'allottime' | 'sendtime', title: string): Column => ({
    title: t(title),
    dataIndex: k,
    width: 165,
    render: (v: number | null) => formatTime(v),
  });
  const now = Date.now();
  const all: Record<RowColumn, Column> = {
    convtime: time('convtime', 'qc.col.convtime'),
    allottime: time('allottime', 'qc.col.allottime'),
    sendtime: time('sendtime', 'qc.col.sendtime'),
    agent: { title: t('qc.col.agent'), dataIndex: 'agentusername', width: 110 },
    visitor: { title: t('qc.col.visitor'), dataIndex: 'username', ellipsis: true },
    card: {
      title: t('qc.col.card'),
      dataIndex: 'cardname',
      width: 120,
      render: (v: string, r) => `${v} v${r.version}`,
    },
    status: {
      title: t('qc.col.status'),
      dataIndex: 'status',
      width: 90,
      render: (s: QualityRowDto['status']) => <StatusTag s={s} />,
    },
    score: {
      title: t('qc.col.score'),
      width: 150,
      render: (_: unknown, r) => (
        <ScoreCell
          score={r.score}
          pass={r.pass}
          fatal={r.fatal}
          testId={`qc-row-score-${r.agentserviceid}`}
        />
      ),
    },
    auto: {
      title: t('qc.col.auto'),
      dataIndex: 'autopoints',
      width: 80,
      render: (v: number) => (v ? <Tag color="orange">−{v}</Tag> : 0),
    },
    appeal: {
      title: t('qc.col.appeal'),
      dataIndex: 'appeal',
      width: 90,
      render: (s: QualityRowDto['appeal']) => <AppealTag s={s} />,
    },
    inspector: {
      title: t('qc.col.inspector'),
      dataIndex: 'inspectorname',
      width: 100,
      render: (v: string, r) => <span data-testid={`qc-row-inspector-${r.agentserviceid}`}>{v}</span>,
    },
    appealuntil: {
      title: t('qc.col.appealuntil'),
      dataIndex: 'appealuntil',
      width: 165,
      render: (v: number | null) =>
        v && v < now ? <span style={{ opacity: 0.5 }}>{t('qc.appeal.closed')}</span> : formatTime(v),
    },
  };
  return keys.map((k) => all[k]);
}
