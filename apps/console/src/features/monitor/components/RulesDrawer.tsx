import { useEffect } from 'react';
import { Button, Drawer, Form, InputNumber, Select, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MONITOR_RULE_DEFAULTS, type MonitorRuleDto } from '@kefu/protocol';
import { notify } from '../../../lib/notify';
import { useSaving } from '../../../lib/saving';
import { applyFieldErrors } from '../../../lib/formErrors';
import { monitorApi } from '../api';
import { useMonitor } from '../store';

type Values = Omit<MonitorRuleDto, 'updatetime'>;
const FIELDS = ['ringtimeout', 'ringmisses', 'replyalert', 'queuealert', 'busyalert'] as const;

/** Ring-no-answer and alert thresholds per skill group ('' = the default of every group). */
export function RulesDrawer(props: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const qc = useQueryClient();
  const view = useMonitor((s) => s.view);
  const q = useQuery({
    queryKey: ['monitor', 'rules'],
    queryFn: () => monitorApi.rules(),
    enabled: props.open,
  });
  const organ = Form.useWatch('organ', form);
  const { saving, run } = useSaving();
  const own = view?.scope === 'organ' ? view.organ : null;
  const rules = q.data?.list ?? [];
  const ruleOf = (o: string): Values => {
    const r = rules.find((x) => x.organ === o) ?? rules.find((x) => x.organ === '');
    return { ...MONITOR_RULE_DEFAULTS, ...r, organ: o };
  };
  useEffect(() => {
    if (props.open && q.data) form.setFieldsValue(ruleOf(own ?? (organ || '')));
    // The form follows the chosen group (and the rules once loaded).
  }, [props.open, q.data, organ]);
  const groups = (view?.groups ?? []).filter((g) => !own || g.id === own);
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      width={520}
      title={t('monitor.rules.title')}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('monitor.rules.desc')}</Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        data-testid="monitor-rules-form"
        initialValues={{ ...MONITOR_RULE_DEFAULTS, organ: own ?? '' }}
        onFinish={(v) =>
          void run(async () => {
            try {
              await monitorApi.saveRules(v);
            } catch (e) {
              applyFieldErrors(form, e);
              throw e;
            }
            notify.success(t('common.done'));
            await qc.invalidateQueries({ queryKey: ['monitor', 'rules'] });
          })
        }
      >
        <Form.Item name="organ" label={t('monitor.rules.organ')}>
          <Select
            disabled={!!own}
            options={[
              ...(own ? [] : [{ value: '', label: t('monitor.rules.default') }]),
              ...groups.map((g) => ({ value: g.id, label: g.name })),
            ]}
          />
        </Form.Item>
        {FIELDS.map((f) => (
          <Form.Item key={f} name={f} label={t(`monitor.rules.${f}`)}>
            <InputNumber
              min={0}
              max={f === 'ringmisses' ? 100 : 86_400}
              precision={0}
              style={{ width: 200 }}
            />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={saving} data-testid="monitor-rules-save">
          {t('common.save')}
        </Button>
      </Form>
    </Drawer>
  );
}
