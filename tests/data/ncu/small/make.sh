#!/bin/sh
# How the small reports were made (on an H200 with CUDA 13.0 and Nsight Compute 2025.3.1).
# lineinfo.ncu-rep: built with -lineinfo, profiled WITHOUT --import-source (sources not embedded).
# nolineinfo.ncu-rep: built without -lineinfo (SASS-level metrics only).
set -e
out=${1:-.}
NCU=${NCU:-ncu}
nvcc -O3 -lineinfo -arch=sm_90 -o "$out/app_li" app.cu
nvcc -O3 -arch=sm_90 -o "$out/app_noli" app.cu
SECTIONS="--section SpeedOfLight --section LaunchStats --section Occupancy --section SourceCounters"
$NCU $SECTIONS -f -o "$out/lineinfo" "$out/app_li"
$NCU $SECTIONS -f -o "$out/nolineinfo" "$out/app_noli"
$NCU -i "$out/lineinfo.ncu-rep" --csv --page details > "$out/lineinfo_details.csv"
$NCU -i "$out/lineinfo.ncu-rep" --csv --page source --print-source sass > "$out/lineinfo_source_sass.csv"
$NCU -i "$out/lineinfo.ncu-rep" --csv --page source --print-source cuda,sass > "$out/lineinfo_source_cuda_sass.csv"
$NCU -i "$out/nolineinfo.ncu-rep" --csv --page source --print-source cuda,sass > "$out/nolineinfo_source_cuda_sass.csv" 2>&1 || true
# Stored compressed (tests/paths_support.py's data_path unpacks them for the tests).
xz -9 -f "$out/lineinfo.ncu-rep" "$out/nolineinfo.ncu-rep" "$out/lineinfo_source_sass.csv" \
    "$out/lineinfo_source_cuda_sass.csv"
