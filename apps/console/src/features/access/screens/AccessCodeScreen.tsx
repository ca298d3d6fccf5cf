import { useTranslation } from 'react-i18next';
import { AccessScoped } from '../components/AccessPicker';
import { EmbedCodePanel } from '../components/EmbedCode';

/** /setup/accessCode (A09_A01_A01): a website's embed code, chosen by `?appid=`. */
export default function AccessCodeScreen() {
  const { t } = useTranslation();
  return (
    <AccessScoped testid="access-code-screen" title={t('menu.accessCode')}>
      {(ap) => <EmbedCodePanel key={ap.id} ap={ap} />}
    </AccessScoped>
  );
}
