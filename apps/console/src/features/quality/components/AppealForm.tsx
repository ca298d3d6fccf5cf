import { useMemo } from 'react';
import { Checkbox, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QUALITY_LIMITS, type QualityAppealDto, type QualityDetailDto } from '@kefu/protocol';
import { FormModal } from '../../../components/FormModal';
import { rules } from '../../../lib/formRules';
import { formatTime } from '../../../lib/time';
import { qualityApi } from '../api';

interface Fields {
  reason: string;
  items: Record<string, { on?: boolean; reason?: string }>;
  draft?: boolean;
}

/** The agent's appeal: the contested items each with a reason, an overall reason; a draft or submitted. */
export function AppealForm(props: {
  open: boolean;
  detail: QualityDetailDto;
  draft: QualityAppealDto | null;
  onCancel: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const { detail, draft } = props;
  const initial = useMemo<Partial<Fields>>(
    () => ({
      reason: draft?.reason ?? '',
      items: Object.fromEntries((draft?.items ?? []).map((i) => [i.labelid, { on: true, reason: i.reason }])),
    }),
    [draft],
  );
  const scored = new Map(detail.items.map((i) => [i.labelid, i.score]));
  return (
    <FormModal<Fields>
      open={props.open}
      width={640}
      title={t('qc.appeal.new')}
      okText={t('qc.appeal.submit')}
      testId="qc-appeal-form"
      initialValues={initial}
      onCancel={props.onCancel}
      onSubmit={async (v) => {
        const items = Object.entries(v.items ?? {})
          .filter(([, x]) => x?.on)
          .map(([labelid, x]) => ({ labelid, reason: (x.reason ?? '').trim() }));
        await qualityApi.appeal({
          ...(draft ? { id: draft.id } : { inspectionid: detail.row.id }),
          reason: (v.reason ?? '').trim(),
          items,
          submit: !v.draft,
        });
        props.onDone();
      }}
    >
      {(form) => (
        <>
          <Typography.Paragraph type="secondary">
            {t('qc.appeal.window', { time: formatTime(detail.row.appealuntil) })}
          </Typography.Paragraph>
          {detail.card.items.map((it) => (
            <div key={it.id} style={{ marginBottom: 4 }}>
              <Form.Item name={['items', it.id, 'on']} valuePropName="checked" noStyle>
                <Checkbox data-testid={`qc-appeal-item-${it.name}`}>
                  {it.name}{' '}
                  <Typography.Text type="secondary">
                    ({it.kind === 'add' ? '+' : '−'}
                    {scored.get(it.id) ?? 0})
                  </Typography.Text>
                </Checkbox>
              </Form.Item>
              <Form.Item noStyle dependencies={[['items', it.id, 'on']]}>
                {() =>
                  form.getFieldValue(['items', it.id, 'on']) ? (
                    <Form.Item
                      name={['items', it.id, 'reason']}
                      rules={[r.required]}
                      style={{ margin: '4px 0 8px 24px' }}
                    >
                      <Input.TextArea
                        autoSize={{ minRows: 1, maxRows: 4 }}
                        maxLength={QUALITY_LIMITS.comment}
                        placeholder={t('qc.appeal.itemReason')}
                        data-testid={`qc-appeal-reason-${it.name}`}
                      />
                    </Form.Item>
                  ) : null
                }
              </Form.Item>
            </div>
          ))}
          <Form.Item
            name="reason"
            label={t('qc.appeal.reason')}
            style={{ marginTop: 12 }}
            rules={[
              {
                validator: async () => {
                  const items = (form.getFieldValue('items') ?? {}) as Fields['items'];
                  if (!Object.values(items).some((x) => x?.on)) throw new Error(t('qc.appeal.pickOne'));
                },
              },
            ]}
          >
            <Input.TextArea rows={2} maxLength={QUALITY_LIMITS.comment} data-testid="qc-appeal-reason" />
          </Form.Item>
          <Form.Item name="draft" valuePropName="checked" noStyle>
            <Checkbox data-testid="qc-appeal-draft">{t('qc.appeal.asDraft')}</Checkbox>
          </Form.Item>
        </>
      )}
    </FormModal>
  );
}
