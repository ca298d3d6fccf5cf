import { useTranslation } from 'react-i18next';
import { CONTACT_SHEET_HEADERS, type ContactSheetColumn } from '@kefu/protocol';
import { contactsApi } from '../api';
import { ImportDialog as SheetImport } from '../../../components/ImportDialog';

/** Upload an .xlsx of contacts (all rows or none; the rows in error are listed). */
export function ImportDialog(props: { open: boolean; onClose: () => void; onImported: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  return (
    <SheetImport
      open={props.open}
      title={t('card.importTitle')}
      hint={t('card.importHint')}
      upload={(file) => contactsApi.import(file)}
      doneText={(r) => t('card.importDone', r)}
      columnName={(f) => CONTACT_SHEET_HEADERS[lang][f as ContactSheetColumn] ?? f}
      onClose={props.onClose}
      onImported={props.onImported}
      testId="contact-import"
    />
  );
}
