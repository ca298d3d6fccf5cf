import { useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AiServiceTestDto } from '@kefu/protocol';
import { robotApi, type AiServiceFields } from '../api';
import { FormModal } from '../../../components/FormModal';

/** The optional OpenAI-compatible provider (/api/xiaoe/serviceai): off by default; the key is write-only. */
export function AiServiceModal(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const ai = useQuery({
    queryKey: ['aiService'],
    queryFn: ({ signal }) => robotApi.ai(signal),
    enabled: props.open,
  });
  const [probe, setProbe] = useState<AiServiceTestDto | null>(null);
  const [testing, setTesting] = useState(false);
  const line = (kind: string, r: AiServiceTestDto['chat']) =>
    r && (r.ok ? t('robot.aiTestOk', { kind, ms: r.ms }) : t('robot.aiTestFail', { kind, error: r.error }));
  return (
    <FormModal<AiServiceFields>
      open={props.open && ai.isSuccess}
      title={t('robot.aiTitle')}
      testId="ai-service-form"
      width={600}
      initialValues={ai.data}
      onCancel={() => {
        setProbe(null);
        props.onClose();
      }}
      onSubmit={async (v) => {
        await robotApi.saveAi({ ...v, apiKey: v.apiKey || undefined });
        void qc.invalidateQueries({ queryKey: ['aiService'] });
        props.onClose();
      }}
    >
      <Typography.Paragraph type="secondary">{t('robot.aiHint')}</Typography.Paragraph>
      <Form.Item name="enabled" label={t('robot.aiEnabled')} valuePropName="checked">
        <Switch data-testid="ai-enabled" />
      </Form.Item>
      <Form.Item name="baseUrl" label={t('robot.aiBaseUrl')}>
        <Input placeholder="http://127.0.0.1:11434/v1" data-testid="ai-base-url" />
      </Form.Item>
      <Form.Item
        name="apiKey"
        label={t('robot.aiKey')}
        extra={ai.data?.hasKey ? t('robot.aiKeyKept') : undefined}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Space size="large" wrap>
        <Form.Item name="model" label={t('robot.aiModel')}>
          <Input style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="embeddingModel" label={t('robot.aiEmbedding')}>
          <Input style={{ width: 200 }} />
        </Form.Item>
      </Space>
      <Space size="large" wrap>
        <Form.Item name="rerank" label={t('robot.aiRerank')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="generate" label={t('robot.aiGenerate')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="timeoutMs" label={t('robot.aiTimeout')}>
          <InputNumber min={500} max={60000} step={500} />
        </Form.Item>
      </Space>
      <div>
        <Button
          loading={testing}
          onClick={async () => {
            setTesting(true);
            try {
              setProbe(await robotApi.testAi());
            } finally {
              setTesting(false);
            }
          }}
        >
          {t('robot.aiTest')}
        </Button>
      </div>
      {probe && (
        <Alert
          style={{ marginTop: 12 }}
          type={[probe.chat, probe.embeddings].some((x) => x && !x.ok) ? 'warning' : 'success'}
          message={[line(t('robot.aiModel'), probe.chat), line(t('robot.aiEmbedding'), probe.embeddings)]
            .filter(Boolean)
            .join('；')}
        />
      )}
    </FormModal>
  );
}
