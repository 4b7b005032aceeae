#ifndef COMBATD_HTTP_ASSETS_H
#define COMBATD_HTTP_ASSETS_H

/* The page embedded at build time (also NUL-terminated; implemented by assets.c, which
 * cmake/embed.cmake writes into the build directory); the contract is the api layer's
 * (embedded.h). */
extern const unsigned char cbd_asset_index_html[];
extern const unsigned long cbd_asset_index_html_len;

#endif
