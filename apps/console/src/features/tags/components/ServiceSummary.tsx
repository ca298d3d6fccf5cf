import { useEffect } from 'react';
import { Button, Form, Input, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TAG_LIMITS, type ConversationSummaryDto } from '@kefu/protocol';
import { topicsApi } from '../api';
import { treeData } from '../../../lib/tree';
import { useSaving } from '../../../lib/saving';
import { notify } from '../../../lib/notify';
import { showFieldErrors } from '../../access/components/fieldErrors';

interface Fields {
  topicid?: string | null;
  memo?: string;
}

/** The conversation's service summary: a service topic (from the tree) and the agent's memo. */
export function ServiceSummary(props: {
  agentserviceid: string;
  summary: ConversationSummaryDto | undefined;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const { saving, run } = useSaving();
  const topics = useQuery({ queryKey: ['topics'], queryFn: ({ signal }) => topicsApi.list(signal) });
  const { summary } = props;
  useEffect(() => {
    form.setFieldsValue({ topicid: summary?.topicid ?? undefined, memo: summary?.memo ?? '' });
  }, [form, summary, props.agentserviceid]);
  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      size="small"
      data-testid="record-summary"
      onFinish={(v) =>
        void run(async () => {
          try {
            await topicsApi.summary(props.agentserviceid, { topicid: v.topicid ?? '', memo: v.memo ?? '' });
          } catch (e) {
            showFieldErrors(form, e);
            throw e;
          }
          notify.success(t('record.saved'));
          props.onChanged();
        })
      }
    >
      <Form.Item name="topicid" label={t('record.topic')}>
        <TreeSelect
          allowClear
          treeDefaultExpandAll
          treeData={treeData(topics.data ?? [])}
          data-testid="record-topic"
        />
      </Form.Item>
      <Form.Item name="memo" label={t('record.memo')}>
        <Input.TextArea rows={3} maxLength={TAG_LIMITS.memo} data-testid="record-memo" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="record-summary-save">
        {t('record.saveSummary')}
      </Button>
    </Form>
  );
}
