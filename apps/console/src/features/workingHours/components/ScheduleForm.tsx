import { useEffect, useState } from 'react';
import { Alert, Button, DatePicker, Divider, Drawer, Form, Input, Select, Space, Switch } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_TIMEZONE,
  type Holiday,
  type SpecialWorkday,
  type WeekDayHours,
  type WorkScheduleDto,
} from '@kefu/protocol';
import { compactWeek, copyMonday, draftError, fullWeek, workApi, type ScheduleDraft } from '../api';
import { RangesEditor } from './RangesEditor';
import { skillList } from '../../section/api';
import { rules } from '../../../lib/formRules';
import { showFieldErrors } from '../../access/components/fieldErrors';

export type ScheduleFormState = { mode: 'create' } | { mode: 'edit'; item: WorkScheduleDto };

interface Fields {
  name: string;
  organ: string | null;
  enabled: boolean;
  timezone: string;
  notinwhmsg: string;
}

const ZONES = [
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'Asia/Taipei',
  'Asia/Tokyo',
  'Asia/Singapore',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Los_Angeles',
  'UTC',
];
const WORKWEEK: WeekDayHours[] = [1, 2, 3, 4, 5].map((day) => ({
  day,
  ranges: [{ start: '09:00', end: '18:00' }],
}));

export function ScheduleForm(props: {
  state: ScheduleFormState | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { state } = props;
  const { t, i18n } = useTranslation();
  const r = rules(i18n.language);
  const [form] = Form.useForm<Fields>();
  const [week, setWeek] = useState<WeekDayHours[]>(fullWeek(WORKWEEK));
  const [holidays, setHolidays] = useState<Holiday[]>([]);
  const [workdays, setWorkdays] = useState<SpecialWorkday[]>([]);
  const [error, setError] = useState<string | null>(null);
  const skills = useQuery({
    queryKey: ['skillList'],
    queryFn: ({ signal }) => skillList(signal),
    enabled: !!state,
  });

  useEffect(() => {
    if (!state) return;
    form.resetFields();
    setError(null);
    const item = state.mode === 'edit' ? state.item : null;
    form.setFieldsValue({
      name: item?.name ?? '',
      organ: item?.organ ?? null,
      enabled: item?.enabled ?? true,
      timezone: item?.timezone ?? DEFAULT_TIMEZONE,
      notinwhmsg: item?.notinwhmsg ?? '',
    });
    setWeek(fullWeek(item ? item.weekly : WORKWEEK));
    setHolidays(item?.holidays ?? []);
    setWorkdays(item?.workdays ?? []);
  }, [state, form]);

  const submit = async (v: Fields) => {
    const draft: ScheduleDraft = {
      name: v.name.trim(),
      organ: v.organ ?? null,
      enabled: v.enabled,
      timezone: v.timezone,
      notinwhmsg: v.notinwhmsg ?? '',
      weekly: compactWeek(week),
      holidays: holidays.filter((h) => h.date),
      workdays: workdays.filter((w) => w.date),
    };
    const err = draftError(draft);
    setError(err ? t(`error.${err}`) : null);
    if (err) return;
    try {
      if (state?.mode === 'edit')
        await workApi.update(state.item.id, { ...draft, organ: draft.organ ?? '' } as ScheduleDraft);
      else await workApi.save({ ...draft, organ: draft.organ ?? '' } as ScheduleDraft);
      props.onSaved();
    } catch (e) {
      showFieldErrors(form, e);
    }
  };

  const dateValue = (d: string) => (d ? dayjs(d, 'YYYY-MM-DD') : null);
  return (
    <Drawer
      open={state !== null}
      title={t(state?.mode === 'edit' ? 'work.edit' : 'work.new')}
      width={720}
      onClose={props.onClose}
      destroyOnHidden={false}
      extra={
        <Space>
          <Button onClick={props.onClose}>{t('common.cancel')}</Button>
          <Button type="primary" data-testid="work-submit" onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Form<Fields>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        scrollToFirstError
        data-testid="work-form"
      >
        <Space wrap size={16} align="start">
          <Form.Item name="name" label={t('work.name')} rules={[r.required]}>
            <Input data-testid="work-name" maxLength={50} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="organ" label={t('work.organ')}>
            <Select
              allowClear
              style={{ width: 200 }}
              placeholder={t('work.organAll')}
              options={(skills.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            />
          </Form.Item>
          <Form.Item name="timezone" label={t('work.timezone')}>
            <Select style={{ width: 190 }} showSearch options={ZONES.map((z) => ({ value: z, label: z }))} />
          </Form.Item>
          <Form.Item name="enabled" label={t('work.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Form.Item name="notinwhmsg" label={t('work.notinwhmsg')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
      {error && (
        <Alert type="error" showIcon message={error} data-testid="work-error" style={{ marginBottom: 12 }} />
      )}
      <Divider titlePlacement="start">
        {t('work.weekly')}{' '}
        <Button size="small" type="link" onClick={() => setWeek(copyMonday(week))}>
          {t('work.copyMonday')}
        </Button>
      </Divider>
      {week.map((d) => (
        <div key={d.day} style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 8 }}>
          <span style={{ width: 40, flex: 'none' }}>{t(`work.day.${d.day}`)}</span>
          <RangesEditor
            testid={`work-day-${d.day}`}
            value={d.ranges}
            onChange={(ranges) => setWeek(week.map((x) => (x.day === d.day ? { ...x, ranges } : x)))}
          />
        </div>
      ))}
      <Divider titlePlacement="start">{t('work.holidays')}</Divider>
      {holidays.map((h, i) => (
        <Space key={i} style={{ marginBottom: 8 }}>
          <DatePicker
            value={dateValue(h.date)}
            onChange={(v) =>
              setHolidays(
                holidays.map((x, j) => (j === i ? { ...x, date: v ? v.format('YYYY-MM-DD') : '' } : x)),
              )
            }
          />
          <Input
            placeholder={t('work.holidayName')}
            maxLength={50}
            value={h.name}
            onChange={(e) =>
              setHolidays(holidays.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
            }
          />
          <Button danger type="link" onClick={() => setHolidays(holidays.filter((_, j) => j !== i))}>
            {t('common.delete')}
          </Button>
        </Space>
      ))}
      <div>
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => setHolidays([...holidays, { date: '', name: '' }])}
        >
          {t('work.addHoliday')}
        </Button>
      </div>
      <Divider titlePlacement="start">{t('work.workdays')}</Divider>
      {workdays.map((w, i) => (
        <div
          key={i}
          style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 8, flexWrap: 'wrap' }}
        >
          <DatePicker
            value={dateValue(w.date)}
            onChange={(v) =>
              setWorkdays(
                workdays.map((x, j) => (j === i ? { ...x, date: v ? v.format('YYYY-MM-DD') : '' } : x)),
              )
            }
          />
          <RangesEditor
            testid={`work-special-${i}`}
            value={w.ranges}
            onChange={(ranges) => setWorkdays(workdays.map((x, j) => (j === i ? { ...x, ranges } : x)))}
          />
          <Button danger type="link" onClick={() => setWorkdays(workdays.filter((_, j) => j !== i))}>
            {t('common.delete')}
          </Button>
        </div>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => setWorkdays([...workdays, { date: '', ranges: [{ start: '09:00', end: '18:00' }] }])}
      >
        {t('work.addWorkday')}
      </Button>
    </Drawer>
  );
}
