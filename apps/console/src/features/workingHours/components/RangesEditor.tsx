import { Button, Space, TimePicker } from 'antd';
import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TimeRange } from '@kefu/protocol';

const FMT = 'HH:mm';
const asDay = (hhmm: string): Dayjs | null => (hhmm ? dayjs(hhmm === '24:00' ? '23:59' : hhmm, FMT) : null);

/** The time ranges of one day; an empty list reads "closed". */
export function RangesEditor(props: {
  value: TimeRange[];
  onChange: (v: TimeRange[]) => void;
  testid: string;
}) {
  const { t } = useTranslation();
  const { value, onChange } = props;
  const set = (i: number, r: TimeRange) => onChange(value.map((x, j) => (j === i ? r : x)));
  return (
    <Space wrap size={[8, 4]} data-testid={props.testid}>
      {value.length === 0 && (
        <span style={{ color: '#999', minWidth: 48, display: 'inline-block' }}>{t('work.closed')}</span>
      )}
      {value.map((r, i) => (
        <Space.Compact key={i}>
          <TimePicker.RangePicker
            format={FMT}
            minuteStep={5}
            allowClear={false}
            order={false}
            value={[asDay(r.start), asDay(r.end)]}
            onChange={(v) => set(i, { start: v?.[0]?.format(FMT) ?? '', end: v?.[1]?.format(FMT) ?? '' })}
            style={{ width: 180 }}
          />
          <Button
            icon={<CloseOutlined />}
            aria-label={t('common.delete')}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          />
        </Space.Compact>
      ))}
      <Button
        size="small"
        type="dashed"
        icon={<PlusOutlined />}
        data-testid={`${props.testid}-add`}
        onClick={() => onChange([...value, { start: '09:00', end: '18:00' }])}
      >
        {t('work.addRange')}
      </Button>
    </Space>
  );
}
