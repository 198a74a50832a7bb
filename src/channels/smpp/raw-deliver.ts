/**
 * deliver_sm's short_message as the bytes received. The smpp package decodes it by data_coding
 * on its own terms (data_coding 0 as unpacked GSM only, 1 as GSM), which loses a reply sent as
 * packed septets or as IA5; mo-message.ts decodes the raw bytes instead. Receipts read the same
 * bytes as text. Only deliver_sm changes: submit_sm and its other fields keep the package's
 * filters. Imported once, for its effect, by the SMSC link (and so by the SMSC simulator's peer).
 */
import smpp from 'smpp';

const params = smpp.commands.deliver_sm?.params;
if (params) params.short_message = { type: smpp.types.buffer };
