import { useState } from 'react';
import { Button, Card, Space, Switch, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { WorkScheduleDto } from '@kefu/protocol';
import { WEEK_ORDER, rangesText, workApi } from '../api';
import { ScheduleForm, type ScheduleFormState } from '../components/ScheduleForm';
import { DeleteLink, EditLink } from '../../../components/RowActions';
import { notify } from '../../../lib/notify';
import { TranslationsButton } from '../../texts/components/TranslationsButton';

/** /setup/workingHours: one schedule for the organisation and optionally one per department. */
export default function WorkingHoursScreen() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['workservice'];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => workApi.list(signal) });
  const [form, setForm] = useState<ScheduleFormState | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: key });

  const columns: ColumnsType<WorkScheduleDto> = [
    {
      title: t('work.name'),
      dataIndex: 'name',
      render: (v: string) => <span data-testid={`work-row-${v}`}>{v}</span>,
    },
    {
      title: t('work.organ'),
      dataIndex: 'organname',
      render: (v: string, w) => (w.organ ? v : t('work.organAll')),
    },
    {
      title: t('work.summary'),
      key: 'summary',
      render: (_, w) => (
        <Space direction="vertical" size={2}>
          {WEEK_ORDER.map((day) => {
            const ranges = w.weekly.find((d) => d.day === day)?.ranges ?? [];
            return (
              <span key={day} style={{ fontSize: 12 }}>
                <span style={{ display: 'inline-block', width: 40 }}>{t(`work.day.${day}`)}</span>
                {ranges.length ? (
                  rangesText(ranges)
                ) : (
                  <span style={{ color: '#999' }}>{t('work.closed')}</span>
                )}
              </span>
            );
          })}
          {w.holidays.length > 0 && (
            <span style={{ fontSize: 12 }}>
              {t('work.holidays')}:{' '}
              {w.holidays.map((h) => (
                <Tag key={h.date}>
                  {h.date}
                  {h.name ? ` ${h.name}` : ''}
                </Tag>
              ))}
            </span>
          )}
        </Space>
      ),
    },
    { title: t('work.timezone'), dataIndex: 'timezone', width: 150 },
    {
      title: t('work.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean, w) => (
        <Switch
          size="small"
          checked={v}
          data-testid={`work-switch-${w.name}`}
          onChange={(on) => void workApi.toggle(w.id, on).then(() => refresh())}
        />
      ),
    },
    {
      title: t('common.actions'),
      key: 'a',
      width: 260,
      render: (_, w) => (
        <Space size={0}>
          <EditLink onClick={() => setForm({ mode: 'edit', item: w })} />
          <TranslationsButton
            scope="workingHours"
            rowid={w.id}
            labels={{ notinwhmsg: t('work.notinwhmsg') }}
          />
          <DeleteLink
            name={w.name}
            testId={`work-delete-${w.name}`}
            onDelete={() => workApi.remove(w.id)}
            onDone={() => void refresh()}
          />
        </Space>
      ),
    },
  ];

  return (
    <Card
      data-testid="working-hours-screen"
      title={t('work.list')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          data-testid="work-create"
          onClick={() => setForm({ mode: 'create' })}
        >
          {t('work.new')}
        </Button>
      }
    >
      <Table<WorkScheduleDto>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('work.empty') }}
        scroll={{ x: 800 }}
      />
      <ScheduleForm
        state={form}
        onClose={() => setForm(null)}
        onSaved={() => {
          setForm(null);
          notify.success(t('common.done'));
          void refresh();
        }}
      />
    </Card>
  );
}
