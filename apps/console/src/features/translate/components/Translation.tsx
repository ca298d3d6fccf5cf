import { Typography } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { translateApi } from '../api';

const style = { fontSize: 12, maxWidth: '78%', marginTop: 2 };

/** A translation already kept with the line (history): shown, never asked for. */
export function TranslationText({ text }: { text: string }) {
  return (
    <Typography.Text type="secondary" style={{ ...style, whiteSpace: 'pre-wrap' }} data-testid="translation">
      <TranslationOutlined /> {text}
    </Typography.Text>
  );
}

/**
 * The translation of an incoming line, under it: asked once per message (the server keeps it, so a
 * reload does not call the provider again); a failure leaves the original alone and offers a retry.
 */
export function Translation({ m }: { m: { id: string; message: string; usession: string } }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['translation', m.id],
    queryFn: () => translateApi.translate(m),
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: false,
  });
  if (q.isPending)
    return (
      <Typography.Text type="secondary" style={style} data-testid="translation-pending">
        {t('tr.pending')}
      </Typography.Text>
    );
  if (q.isError)
    return (
      <Typography.Text type="secondary" style={style} data-testid="translation-failed">
        {t('tr.failed')}{' '}
        <a data-testid="translation-retry" onClick={() => void q.refetch()}>
          {t('tr.retry')}
        </a>
      </Typography.Text>
    );
  return <TranslationText text={q.data.translateMessage.translatemsg} />;
}
