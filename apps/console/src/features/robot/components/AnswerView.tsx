import { Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RobotAnswerDto } from '@kefu/protocol';
import { RichText } from '../../../components/RichText';

const COLORS = { answer: 'green', suggest: 'blue', fallback: 'default', handoff: 'orange' } as const;

/** What the robot did with a test question: outcome, text, match, item, suggestions, sources. */
export function AnswerView({ a, question }: { a: RobotAnswerDto; question: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="robot-test-answer" style={{ marginBottom: 12 }}>
      <Typography.Paragraph style={{ marginBottom: 4 }}>
        <Typography.Text type="secondary">Q：</Typography.Text>
        {question}
      </Typography.Paragraph>
      <div style={{ background: 'rgba(0,0,0,0.03)', borderRadius: 8, padding: '8px 12px', marginBottom: 6 }}>
        <RichText text={a.text} testId="robot-test-text" />
      </div>
      <Descriptions size="small" column={2} colon>
        <Descriptions.Item label={t('robot.outcome')}>
          <Space size={4} wrap>
            <Tag color={COLORS[a.action]} data-testid="robot-test-action">
              {t(`robot.action.${a.action}`)}
            </Tag>
            {a.handoff && <Tag>{t(`robot.reason.${a.handoff}`)}</Tag>}
            <Tag>{t(`robot.source.${a.source}`)}</Tag>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('robot.score')}>
          <span data-testid="robot-test-score">{a.score.toFixed(3)}</span> · {a.ms} ms
        </Descriptions.Item>
        {a.item && (
          <Descriptions.Item label={t('robot.matched')} span={2}>
            {a.item.question}
          </Descriptions.Item>
        )}
        {a.action === 'suggest' && a.suggestions.length > 0 && (
          <Descriptions.Item label={t('robot.action.suggest')} span={2}>
            {a.suggestions.map((s) => `${s.question} (${s.score.toFixed(2)})`).join('；')}
          </Descriptions.Item>
        )}
        {a.source === 'llm' && a.cites.length > 0 && (
          <Descriptions.Item label={t('robot.cites')} span={2}>
            {a.cites.map((c) => c.question).join('；')}
          </Descriptions.Item>
        )}
      </Descriptions>
    </div>
  );
}
