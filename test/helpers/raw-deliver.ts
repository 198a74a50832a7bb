/**
 * deliver_sm's short_message as the bytes received, for tests whose ESME is the `smpp` package:
 * the package decodes it by data_coding on its own terms (data_coding 0 as unpacked GSM only, 1
 * as GSM), and the tests compare the bytes Wirebird wrote. Imported once, for its effect, by the
 * test ESME (the gateway reads its PDUs with its own codec, src/smpp-wire).
 */
import smpp from 'smpp';

const params = smpp.commands.deliver_sm?.params;
if (params) params.short_message = { type: smpp.types.buffer };
