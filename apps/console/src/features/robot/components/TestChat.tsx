import { useState } from 'react';
import { Button, Card, Empty, Input, Space, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ROBOT_LIMITS, type RobotAnswerDto } from '@kefu/protocol';
import { robotApi } from '../api';
import { AnswerView } from './AnswerView';

/** The robot's test chat (POST /api/xiaoe/config/chat): newest exchange first. */
export function TestChat({ robotid }: { robotid: string }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [busy, setBusy] = useState(false);
  const [log, setLog] = useState<Array<{ q: string; a: RobotAnswerDto }>>([]);
  const ask = async () => {
    const question = q.trim();
    if (!question) return;
    setBusy(true);
    try {
      const a = await robotApi.chat(robotid, question);
      setLog((l) => [{ q: question, a }, ...l].slice(0, 20));
      setQ('');
    } catch {
      // toasted
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card size="small" title={t('robot.test')} data-testid="robot-test">
      <Typography.Paragraph type="secondary">{t('robot.testHint')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
        <Input
          value={q}
          maxLength={ROBOT_LIMITS.question}
          placeholder={t('robot.testPlaceholder')}
          onChange={(e) => setQ(e.target.value)}
          onPressEnter={() => void ask()}
          data-testid="robot-test-input"
        />
        <Button
          type="primary"
          icon={<SendOutlined />}
          loading={busy}
          onClick={() => void ask()}
          data-testid="robot-test-send"
        >
          {t('robot.ask')}
        </Button>
      </Space.Compact>
      {log.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        log.map((x, i) => <AnswerView key={log.length - i} a={x.a} question={x.q} />)
      )}
    </Card>
  );
}
