/**
 * Countries of the registration form: Mexico, USA and Canada first, then 'Other countries'
 * with every other ISO 3166-1 country or territory that has an international dialling code
 * (Bouvet Island, Heard and McDonald Islands and the US Minor Outlying Islands have none).
 * `code` is the ISO 3166-1 alpha-2 code (the value sent as `Country`); `dial` is the calling
 * code sent as `Code_country`.
 */
export interface Country {
  code: string;
  es: string;
  en: string;
  dial: string;
}

const row = (line: string): Country => {
  const [code, es, en, dial] = line.split('|') as [string, string, string, string];
  return { code, es, en, dial: `+${dial}` };
};

/** The three countries listed first, in the specification's order. */
export const FEATURED_COUNTRIES: readonly Country[] = [
  'MX|México|Mexico|52',
  'US|Estados Unidos|USA|1',
  'CA|Canadá|Canada|1',
].map(row);

/** Every other country, sorted by Spanish name at runtime (the table is by alpha-2 code). */
const OTHER_TABLE = `
AD|Andorra|Andorra|376
AE|Emiratos Árabes Unidos|United Arab Emirates|971
AF|Afganistán|Afghanistan|93
AG|Antigua y Barbuda|Antigua and Barbuda|1268
AI|Anguila|Anguilla|1264
AL|Albania|Albania|355
AM|Armenia|Armenia|374
AO|Angola|Angola|244
AQ|Antártida|Antarctica|672
AR|Argentina|Argentina|54
AS|Samoa Americana|American Samoa|1684
AT|Austria|Austria|43
AU|Australia|Australia|61
AW|Aruba|Aruba|297
AX|Islas Åland|Åland Islands|358
AZ|Azerbaiyán|Azerbaijan|994
BA|Bosnia y Herzegovina|Bosnia and Herzegovina|387
BB|Barbados|Barbados|1246
BD|Bangladés|Bangladesh|880
BE|Bélgica|Belgium|32
BF|Burkina Faso|Burkina Faso|226
BG|Bulgaria|Bulgaria|359
BH|Baréin|Bahrain|973
BI|Burundi|Burundi|257
BJ|Benín|Benin|229
BL|San Bartolomé|Saint Barthélemy|590
BM|Bermudas|Bermuda|1441
BN|Brunéi|Brunei Darussalam|673
BO|Bolivia|Bolivia|591
BQ|Bonaire, San Eustaquio y Saba|Bonaire, Sint Eustatius and Saba|599
BR|Brasil|Brazil|55
BS|Bahamas|Bahamas|1242
BT|Bután|Bhutan|975
BW|Botsuana|Botswana|267
BY|Bielorrusia|Belarus|375
BZ|Belice|Belize|501
CC|Islas Cocos|Cocos (Keeling) Islands|61
CD|República Democrática del Congo|Democratic Republic of the Congo|243
CF|República Centroafricana|Central African Republic|236
CG|Congo|Congo|242
CH|Suiza|Switzerland|41
CI|Costa de Marfil|Côte d'Ivoire|225
CK|Islas Cook|Cook Islands|682
CL|Chile|Chile|56
CM|Camerún|Cameroon|237
CN|China|China|86
CO|Colombia|Colombia|57
CR|Costa Rica|Costa Rica|506
CU|Cuba|Cuba|53
CV|Cabo Verde|Cabo Verde|238
CW|Curazao|Curaçao|599
CX|Isla de Navidad|Christmas Island|61
CY|Chipre|Cyprus|357
CZ|Chequia|Czechia|420
DE|Alemania|Germany|49
DJ|Yibuti|Djibouti|253
DK|Dinamarca|Denmark|45
DM|Dominica|Dominica|1767
DO|República Dominicana|Dominican Republic|1809
DZ|Argelia|Algeria|213
EC|Ecuador|Ecuador|593
EE|Estonia|Estonia|372
EG|Egipto|Egypt|20
EH|Sahara Occidental|Western Sahara|212
ER|Eritrea|Eritrea|291
ES|España|Spain|34
ET|Etiopía|Ethiopia|251
FI|Finlandia|Finland|358
FJ|Fiyi|Fiji|679
FK|Islas Malvinas|Falkland Islands (Malvinas)|500
FM|Micronesia|Micronesia|691
FO|Islas Feroe|Faroe Islands|298
FR|Francia|France|33
GA|Gabón|Gabon|241
GB|Reino Unido|United Kingdom|44
GD|Granada|Grenada|1473
GE|Georgia|Georgia|995
GF|Guayana Francesa|French Guiana|594
GG|Guernsey|Guernsey|44
GH|Ghana|Ghana|233
GI|Gibraltar|Gibraltar|350
GL|Groenlandia|Greenland|299
GM|Gambia|Gambia|220
GN|Guinea|Guinea|224
GP|Guadalupe|Guadeloupe|590
GQ|Guinea Ecuatorial|Equatorial Guinea|240
GR|Grecia|Greece|30
GS|Islas Georgias del Sur y Sandwich del Sur|South Georgia and the South Sandwich Islands|500
GT|Guatemala|Guatemala|502
GU|Guam|Guam|1671
GW|Guinea-Bisáu|Guinea-Bissau|245
GY|Guyana|Guyana|592
HK|Hong Kong|Hong Kong|852
HN|Honduras|Honduras|504
HR|Croacia|Croatia|385
HT|Haití|Haiti|509
HU|Hungría|Hungary|36
ID|Indonesia|Indonesia|62
IE|Irlanda|Ireland|353
IL|Israel|Israel|972
IM|Isla de Man|Isle of Man|44
IN|India|India|91
IO|Territorio Británico del Océano Índico|British Indian Ocean Territory|246
IQ|Irak|Iraq|964
IR|Irán|Iran|98
IS|Islandia|Iceland|354
IT|Italia|Italy|39
JE|Jersey|Jersey|44
JM|Jamaica|Jamaica|1876
JO|Jordania|Jordan|962
JP|Japón|Japan|81
KE|Kenia|Kenya|254
KG|Kirguistán|Kyrgyzstan|996
KH|Camboya|Cambodia|855
KI|Kiribati|Kiribati|686
KM|Comoras|Comoros|269
KN|San Cristóbal y Nieves|Saint Kitts and Nevis|1869
KP|Corea del Norte|North Korea|850
KR|Corea del Sur|South Korea|82
KW|Kuwait|Kuwait|965
KY|Islas Caimán|Cayman Islands|1345
KZ|Kazajistán|Kazakhstan|7
LA|Laos|Laos|856
LB|Líbano|Lebanon|961
LC|Santa Lucía|Saint Lucia|1758
LI|Liechtenstein|Liechtenstein|423
LK|Sri Lanka|Sri Lanka|94
LR|Liberia|Liberia|231
LS|Lesoto|Lesotho|266
LT|Lituania|Lithuania|370
LU|Luxemburgo|Luxembourg|352
LV|Letonia|Latvia|371
LY|Libia|Libya|218
MA|Marruecos|Morocco|212
MC|Mónaco|Monaco|377
MD|Moldavia|Moldova|373
ME|Montenegro|Montenegro|382
MF|San Martín (parte francesa)|Saint Martin (French part)|590
MG|Madagascar|Madagascar|261
MH|Islas Marshall|Marshall Islands|692
MK|Macedonia del Norte|North Macedonia|389
ML|Malí|Mali|223
MM|Myanmar|Myanmar|95
MN|Mongolia|Mongolia|976
MO|Macao|Macao|853
MP|Islas Marianas del Norte|Northern Mariana Islands|1670
MQ|Martinica|Martinique|596
MR|Mauritania|Mauritania|222
MS|Montserrat|Montserrat|1664
MT|Malta|Malta|356
MU|Mauricio|Mauritius|230
MV|Maldivas|Maldives|960
MW|Malaui|Malawi|265
MY|Malasia|Malaysia|60
MZ|Mozambique|Mozambique|258
NA|Namibia|Namibia|264
NC|Nueva Caledonia|New Caledonia|687
NE|Níger|Niger|227
NF|Isla Norfolk|Norfolk Island|672
NG|Nigeria|Nigeria|234
NI|Nicaragua|Nicaragua|505
NL|Países Bajos|Netherlands|31
NO|Noruega|Norway|47
NP|Nepal|Nepal|977
NR|Nauru|Nauru|674
NU|Niue|Niue|683
NZ|Nueva Zelanda|New Zealand|64
OM|Omán|Oman|968
PA|Panamá|Panama|507
PE|Perú|Peru|51
PF|Polinesia Francesa|French Polynesia|689
PG|Papúa Nueva Guinea|Papua New Guinea|675
PH|Filipinas|Philippines|63
PK|Pakistán|Pakistan|92
PL|Polonia|Poland|48
PM|San Pedro y Miquelón|Saint Pierre and Miquelon|508
PN|Islas Pitcairn|Pitcairn|64
PR|Puerto Rico|Puerto Rico|1787
PS|Palestina|Palestine|970
PT|Portugal|Portugal|351
PW|Palaos|Palau|680
PY|Paraguay|Paraguay|595
QA|Catar|Qatar|974
RE|Reunión|Réunion|262
RO|Rumania|Romania|40
RS|Serbia|Serbia|381
RU|Rusia|Russia|7
RW|Ruanda|Rwanda|250
SA|Arabia Saudita|Saudi Arabia|966
SB|Islas Salomón|Solomon Islands|677
SC|Seychelles|Seychelles|248
SD|Sudán|Sudan|249
SE|Suecia|Sweden|46
SG|Singapur|Singapore|65
SH|Santa Elena, Ascensión y Tristán de Acuña|Saint Helena, Ascension and Tristan da Cunha|290
SI|Eslovenia|Slovenia|386
SJ|Svalbard y Jan Mayen|Svalbard and Jan Mayen|47
SK|Eslovaquia|Slovakia|421
SL|Sierra Leona|Sierra Leone|232
SM|San Marino|San Marino|378
SN|Senegal|Senegal|221
SO|Somalia|Somalia|252
SR|Surinam|Suriname|597
SS|Sudán del Sur|South Sudan|211
ST|Santo Tomé y Príncipe|Sao Tome and Principe|239
SV|El Salvador|El Salvador|503
SX|San Martín (parte neerlandesa)|Sint Maarten (Dutch part)|1721
SY|Siria|Syria|963
SZ|Esuatini|Eswatini|268
TC|Islas Turcas y Caicos|Turks and Caicos Islands|1649
TD|Chad|Chad|235
TF|Territorios Australes Franceses|French Southern Territories|262
TG|Togo|Togo|228
TH|Tailandia|Thailand|66
TJ|Tayikistán|Tajikistan|992
TK|Tokelau|Tokelau|690
TL|Timor Oriental|Timor-Leste|670
TM|Turkmenistán|Turkmenistan|993
TN|Túnez|Tunisia|216
TO|Tonga|Tonga|676
TR|Turquía|Türkiye|90
TT|Trinidad y Tobago|Trinidad and Tobago|1868
TV|Tuvalu|Tuvalu|688
TW|Taiwán|Taiwan|886
TZ|Tanzania|Tanzania|255
UA|Ucrania|Ukraine|380
UG|Uganda|Uganda|256
UY|Uruguay|Uruguay|598
UZ|Uzbekistán|Uzbekistan|998
VA|Ciudad del Vaticano|Holy See (Vatican City)|39
VC|San Vicente y las Granadinas|Saint Vincent and the Grenadines|1784
VE|Venezuela|Venezuela|58
VG|Islas Vírgenes Británicas|British Virgin Islands|1284
VI|Islas Vírgenes de los Estados Unidos|US Virgin Islands|1340
VN|Vietnam|Viet Nam|84
VU|Vanuatu|Vanuatu|678
WF|Wallis y Futuna|Wallis and Futuna|681
WS|Samoa|Samoa|685
YE|Yemen|Yemen|967
YT|Mayotte|Mayotte|262
ZA|Sudáfrica|South Africa|27
ZM|Zambia|Zambia|260
ZW|Zimbabue|Zimbabwe|263
`;

/** 'Other countries': every other country, sorted by its Spanish name. */
export const OTHER_COUNTRIES: readonly Country[] = OTHER_TABLE.trim()
  .split('\n')
  .map(row)
  .sort((a, b) => a.es.localeCompare(b.es, 'es'));

/** Every country of the selector, in the selector's order. */
export const COUNTRIES: readonly Country[] = [...FEATURED_COUNTRIES, ...OTHER_COUNTRIES];

const BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

/** The country with this ISO 3166-1 alpha-2 code, if it is in the list. */
export function findCountry(code: unknown): Country | undefined {
  return typeof code === 'string' ? BY_CODE.get(code) : undefined;
}

/** The country's name in the UI language ('es' default). */
export function countryName(country: Country, language: string = 'es'): string {
  return language.startsWith('en') ? country.en : country.es;
}
