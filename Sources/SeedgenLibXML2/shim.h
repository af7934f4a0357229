#ifndef SEEDGEN_LIBXML2_SHIM_H
#define SEEDGEN_LIBXML2_SHIM_H

// Debian builds libxml2 with ICU. If a module sees both Foundation and the ICU types that
// libxml/encoding.h pulls in, a clean build fails with "'UErrorCode' has different
// definitions in different modules". We never use libxml2's ICU converters, so hide them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a global function-pointer variable, which Swift 6 rejects as shared mutable state.
static inline void seedgen_xml_free(void *pointer) { xmlFree(pointer); }

#endif
