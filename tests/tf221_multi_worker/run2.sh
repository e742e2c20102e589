#!/bin/bash
# two TF 2.21 workers on loopback ports (oneDNN off: MatMul is logged as MatMul, not _MklMatMul)
export TF_ENABLE_ONEDNN_OPTS=0
P=$1; shift
W0=$(python3 -c 'import json,sys;print(json.dumps({"cluster":{"worker":["localhost:'$P'","localhost:'$((P+1))'"]},"task":{"type":"worker","index":0}}))')
W1=$(python3 -c 'import json,sys;print(json.dumps({"cluster":{"worker":["localhost:'$P'","localhost:'$((P+1))'"]},"task":{"type":"worker","index":1}}))')
TF_CPP_MIN_LOG_LEVEL=0 CUDA_VISIBLE_DEVICES= TF_CONFIG="$W0" timeout 300 /work/tfvenv/bin/python "$@" > w0.log 2>&1 &
TF_CPP_MIN_LOG_LEVEL=0 CUDA_VISIBLE_DEVICES= TF_CONFIG="$W1" timeout 300 /work/tfvenv/bin/python "$@" > w1.log 2>&1 &
wait
