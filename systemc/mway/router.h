// The k-ary m-way router (the paper's Fig. 2): two channel interfaces and the DIM+ and DIM-
// buffer sets, each with its allocation/mapping unit, routing logic, buffer arbiter and replica
// engine. Degree 2 whatever the dimension.
#pragma once

#include <systemc>

#include "systemc/mway/buffer_set.h"

namespace wormcast {

class MwayRouter : public sc_core::sc_module {
 public:
  MwayRouter(sc_core::sc_module_name name, const MwayShared& sh, int id)
      : sc_module(name),
        m_id(id),
        m_dim(sh.geo->router_dim(id)),
        plus("plus", sh, MwayBufferSet::Role::Router, 2 * m_dim, sh.geo->set_in_channel(id, 0),
             sh.geo->set_out_channel(id, 0), sh.params->buffers, sh.params->buffer_length),
        minus("minus", sh, MwayBufferSet::Role::Router, 2 * m_dim + 1, sh.geo->set_in_channel(id, 1),
              sh.geo->set_out_channel(id, 1), sh.params->buffers, sh.params->buffer_length) {}

  int id() const { return m_id; }
  int dim() const { return m_dim; }

 private:
  int m_id;
  int m_dim;

 public:
  MwayBufferSet plus;   ///< DIM+: receives from the low channel, drives the high one
  MwayBufferSet minus;  ///< DIM-: receives from the high channel, drives the low one
};

}  // namespace wormcast
