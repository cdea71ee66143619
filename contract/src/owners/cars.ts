/** Cars bound to rooms (/basismembers/cars) are the parking area's cars (contract/src/carpark/cars.ts). */
export * from '../carpark/cars.js';
