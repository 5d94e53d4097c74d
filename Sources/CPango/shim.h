// Pango laid out on fontconfig and drawn with Cairo, and the two libraries under it that LaminaText
// calls directly: fontconfig (font configurations, name matching) and HarfBuzz (font metrics, glyph
// lookup and outlines). One module, so that Swift sees each C declaration once.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <hb-ot.h>

// Macros Swift cannot import.
static const int lamina_pango_scale = PANGO_SCALE;
static const unsigned int lamina_pango_glyph_empty = PANGO_GLYPH_EMPTY;
static const unsigned int lamina_pango_glyph_unknown_flag = PANGO_GLYPH_UNKNOWN_FLAG;
