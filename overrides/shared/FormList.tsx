import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { removeItem } from '../../kernel/rules/experiment';
import { t } from '../../src/core/i18n/i18n';

/** A titled block of a bespoke form, with an optional action (an Add button) on the right of its title. */
export function FormSection({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle2">{title}</Typography>
        {action}
      </Stack>
      {children}
    </Stack>
  );
}

/**
 * A list of text inputs with Add and Remove; removing the last one leaves one blank input (SPEC 5).
 * @example <TextListField title="Phones" itemLabel="Phone" addLabel="Add phone" values={phones} onChange={setPhones} />
 */
export function TextListField({ title, itemLabel, addLabel, values, onChange }: { title: string; itemLabel: string; addLabel: string; values: string[]; onChange: (next: string[]) => void }) {
  return (
    <FormSection
      title={title}
      action={
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...values, ''])}>
          {addLabel}
        </Button>
      }
    >
      {values.map((value, index) => (
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TextField
            fullWidth
            size="small"
            label={`${itemLabel} ${index + 1}`}
            value={value}
            onChange={(e) => onChange(values.map((v, i) => (i === index ? e.target.value : v)))}
          />
          <IconButton aria-label={t('Remove {item} {n}', { item: itemLabel.toLowerCase(), n: index + 1 })} onClick={() => onChange(removeItem(values, index, () => ''))}>
            <RemoveIcon />
          </IconButton>
        </Stack>
      ))}
    </FormSection>
  );
}
